from enum import StrEnum


class PostV1TasksApplyBodyTasksItemPriority(StrEnum):
    CRITICAL = "critical"
    HIGH = "high"
    LOW = "low"
    NORMAL = "normal"

    def __str__(self) -> str:
        return str(self.value)
