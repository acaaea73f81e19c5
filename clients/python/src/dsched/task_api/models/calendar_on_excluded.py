from enum import StrEnum


class CalendarOnExcluded(StrEnum):
    NEXT_BUSINESS_DAY = "next_business_day"
    PREVIOUS_BUSINESS_DAY = "previous_business_day"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
