from enum import StrEnum


class TaskWorkflowNodesItemWaitOnTimeout(StrEnum):
    FAIL = "fail"
    SUCCEED = "succeed"

    def __str__(self) -> str:
        return str(self.value)
