from enum import StrEnum


class GetV1WorkflowsIdNodesState(StrEnum):
    CANCELLED = "cancelled"
    DEAD = "dead"
    PENDING = "pending"
    RUNNING = "running"
    SKIPPED = "skipped"
    SUCCEEDED = "succeeded"
    UPSTREAM_FAILED = "upstream_failed"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
