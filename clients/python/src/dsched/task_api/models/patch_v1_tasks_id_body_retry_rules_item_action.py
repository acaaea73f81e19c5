from enum import StrEnum


class PatchV1TasksIdBodyRetryRulesItemAction(StrEnum):
    DEAD = "dead"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
