from enum import StrEnum


class TaskRetryRulesItemAction(StrEnum):
    DEAD = "dead"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
