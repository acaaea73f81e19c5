from enum import StrEnum


class PostV1TasksApplyBodyTasksItemOverlapPolicy(StrEnum):
    ALLOW = "allow"
    FORBID = "forbid"

    def __str__(self) -> str:
        return str(self.value)
