from enum import StrEnum


class PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout(StrEnum):
    FAIL = "fail"
    SUCCEED = "succeed"

    def __str__(self) -> str:
        return str(self.value)
