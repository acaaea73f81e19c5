from enum import StrEnum


class GetV1TasksIdAuditResponse200OccurrencesItemStatus(StrEnum):
    CANCELLED = "cancelled"
    DEAD = "dead"
    EXCLUDED = "excluded"
    MISSING = "missing"
    PENDING = "pending"
    RUNNING = "running"
    SKIPPED = "skipped"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
