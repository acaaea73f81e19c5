from enum import StrEnum


class OccurrenceCalendar(StrEnum):
    EXCLUDED = "excluded"
    MOVED = "moved"

    def __str__(self) -> str:
        return str(self.value)
