from enum import StrEnum


class OperationAction(StrEnum):
    CANCEL = "cancel"
    PAUSE = "pause"
    REDRIVE = "redrive"
    RESUME = "resume"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
