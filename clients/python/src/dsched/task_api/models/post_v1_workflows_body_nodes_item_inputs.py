from enum import StrEnum


class PostV1WorkflowsBodyNodesItemInputs(StrEnum):
    NONE = "none"
    PARENTS = "parents"

    def __str__(self) -> str:
        return str(self.value)
