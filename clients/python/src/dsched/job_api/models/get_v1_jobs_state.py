from enum import StrEnum


class GetV1JobsState(StrEnum):
    CANCELLED = "cancelled"
    DEAD = "dead"
    FAILED = "failed"
    PENDING = "pending"
    RUNNING = "running"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
