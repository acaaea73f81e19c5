from enum import StrEnum


class ScheduleViewType1DstSkipped(StrEnum):
    SHIFT = "shift"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
