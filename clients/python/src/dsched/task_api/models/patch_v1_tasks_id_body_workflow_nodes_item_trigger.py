from enum import StrEnum


class PatchV1TasksIdBodyWorkflowNodesItemTrigger(StrEnum):
    ALL_DONE = "all_done"
    ALL_SUCCESS = "all_success"
    ONE_FAILED = "one_failed"

    def __str__(self) -> str:
        return str(self.value)
