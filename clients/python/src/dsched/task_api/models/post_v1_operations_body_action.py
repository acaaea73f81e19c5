from enum import StrEnum


class PostV1OperationsBodyAction(StrEnum):
    CANCEL = "cancel"
    PAUSE = "pause"
    REDRIVE = "redrive"
    RESUME = "resume"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
