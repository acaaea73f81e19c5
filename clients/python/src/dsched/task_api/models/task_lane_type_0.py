from enum import StrEnum


class TaskLaneType0(StrEnum):
    CRITICAL = "critical"
    DEFAULT = "default"
    LONG = "long"

    def __str__(self) -> str:
        return str(self.value)
