from enum import StrEnum


class TaskWorkflowNodesItemKind(StrEnum):
    CALL = "call"
    SLEEP = "sleep"
    WAIT = "wait"

    def __str__(self) -> str:
        return str(self.value)
