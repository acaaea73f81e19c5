from enum import StrEnum


class PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger(StrEnum):
    ALL_DONE = "all_done"
    ALL_SUCCESS = "all_success"
    ONE_FAILED = "one_failed"

    def __str__(self) -> str:
        return str(self.value)
