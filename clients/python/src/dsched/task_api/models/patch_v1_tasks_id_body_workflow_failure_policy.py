from enum import StrEnum


class PatchV1TasksIdBodyWorkflowFailurePolicy(StrEnum):
    CONTINUE = "continue"
    FAIL_FAST = "fail_fast"

    def __str__(self) -> str:
        return str(self.value)
