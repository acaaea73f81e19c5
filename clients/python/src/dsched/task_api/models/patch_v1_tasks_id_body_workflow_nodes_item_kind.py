from enum import StrEnum


class PatchV1TasksIdBodyWorkflowNodesItemKind(StrEnum):
    CALL = "call"
    MAP = "map"
    SLEEP = "sleep"
    WAIT = "wait"

    def __str__(self) -> str:
        return str(self.value)
