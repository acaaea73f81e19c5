from enum import StrEnum


class PostV1TasksBodyWorkflowNodesItemKind(StrEnum):
    CALL = "call"
    MAP = "map"
    SLEEP = "sleep"
    WAIT = "wait"

    def __str__(self) -> str:
        return str(self.value)
