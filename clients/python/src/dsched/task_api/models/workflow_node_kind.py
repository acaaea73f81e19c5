from enum import StrEnum


class WorkflowNodeKind(StrEnum):
    CALL = "call"
    MAP = "map"
    SLEEP = "sleep"
    WAIT = "wait"

    def __str__(self) -> str:
        return str(self.value)
