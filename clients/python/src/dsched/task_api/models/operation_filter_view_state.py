from enum import StrEnum


class OperationFilterViewState(StrEnum):
    DEAD = "dead"
    PENDING = "pending"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
