from enum import StrEnum


class PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind(StrEnum):
    CALL = "call"
    MAP = "map"
    SLEEP = "sleep"
    WAIT = "wait"

    def __str__(self) -> str:
        return str(self.value)
