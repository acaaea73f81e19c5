from enum import StrEnum


class TaskWorkflowNodesItemInputs(StrEnum):
    NONE = "none"
    PARENTS = "parents"

    def __str__(self) -> str:
        return str(self.value)
