from enum import StrEnum


class PatchV1TasksIdBodyLane(StrEnum):
    CRITICAL = "critical"
    DEFAULT = "default"
    LONG = "long"

    def __str__(self) -> str:
        return str(self.value)
