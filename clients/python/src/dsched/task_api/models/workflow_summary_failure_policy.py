from enum import StrEnum


class WorkflowSummaryFailurePolicy(StrEnum):
    CONTINUE = "continue"
    FAIL_FAST = "fail_fast"

    def __str__(self) -> str:
        return str(self.value)
