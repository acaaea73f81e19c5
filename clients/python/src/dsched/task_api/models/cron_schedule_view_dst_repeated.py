from enum import StrEnum


class CronScheduleViewDstRepeated(StrEnum):
    BOTH = "both"
    FIRST = "first"
    LAST = "last"

    def __str__(self) -> str:
        return str(self.value)
