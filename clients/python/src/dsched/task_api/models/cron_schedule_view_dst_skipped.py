from enum import StrEnum


class CronScheduleViewDstSkipped(StrEnum):
    SHIFT = "shift"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
