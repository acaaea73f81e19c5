from enum import StrEnum


class WorkflowNodeInputs(StrEnum):
    NONE = "none"
    PARENTS = "parents"

    def __str__(self) -> str:
        return str(self.value)
