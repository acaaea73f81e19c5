from enum import StrEnum


class PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs(StrEnum):
    NONE = "none"
    PARENTS = "parents"

    def __str__(self) -> str:
        return str(self.value)
