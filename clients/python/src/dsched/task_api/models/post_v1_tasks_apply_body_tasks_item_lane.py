from enum import StrEnum


class PostV1TasksApplyBodyTasksItemLane(StrEnum):
    CRITICAL = "critical"
    DEFAULT = "default"
    LONG = "long"

    def __str__(self) -> str:
        return str(self.value)
