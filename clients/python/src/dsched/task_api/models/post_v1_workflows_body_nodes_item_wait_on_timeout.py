from enum import StrEnum


class PostV1WorkflowsBodyNodesItemWaitOnTimeout(StrEnum):
    FAIL = "fail"
    SUCCEED = "succeed"

    def __str__(self) -> str:
        return str(self.value)
