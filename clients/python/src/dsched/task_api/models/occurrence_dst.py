from enum import StrEnum


class OccurrenceDst(StrEnum):
    REPEATED = "repeated"
    SHIFTED = "shifted"
    SKIPPED = "skipped"

    def __str__(self) -> str:
        return str(self.value)
