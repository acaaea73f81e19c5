from enum import StrEnum


class TaskScheduleType1DstSkipped(StrEnum):
    SHIFT = "shift"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
