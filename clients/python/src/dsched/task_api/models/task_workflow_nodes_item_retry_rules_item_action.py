from enum import StrEnum


class TaskWorkflowNodesItemRetryRulesItemAction(StrEnum):
    DEAD = "dead"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
