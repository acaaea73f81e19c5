from enum import StrEnum


class PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItemStatusType1(StrEnum):
    VALUE_0 = "4xx"
    VALUE_1 = "5xx"

    def __str__(self) -> str:
        return str(self.value)
