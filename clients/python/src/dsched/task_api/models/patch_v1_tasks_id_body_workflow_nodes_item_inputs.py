from enum import StrEnum


class PatchV1TasksIdBodyWorkflowNodesItemInputs(StrEnum):
    NONE = "none"
    PARENTS = "parents"

    def __str__(self) -> str:
        return str(self.value)
