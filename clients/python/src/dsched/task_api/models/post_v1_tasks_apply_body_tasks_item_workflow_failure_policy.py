from enum import StrEnum


class PostV1TasksApplyBodyTasksItemWorkflowFailurePolicy(StrEnum):
    CONTINUE = "continue"
    FAIL_FAST = "fail_fast"

    def __str__(self) -> str:
        return str(self.value)
