from enum import StrEnum


class ScheduleViewType1DstRepeated(StrEnum):
    BOTH = "both"
    FIRST = "first"
    LAST = "last"

    def __str__(self) -> str:
        return str(self.value)
