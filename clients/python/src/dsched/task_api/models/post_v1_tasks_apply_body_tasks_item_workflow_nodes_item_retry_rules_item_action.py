from enum import StrEnum


class PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItemAction(StrEnum):
    DEAD = "dead"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)
