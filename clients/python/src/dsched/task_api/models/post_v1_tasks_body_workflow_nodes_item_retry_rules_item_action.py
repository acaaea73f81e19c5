from enum import StrEnum


class PostV1TasksBodyWorkflowNodesItemRetryRulesItemAction(StrEnum):
    DEAD = "dead"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
