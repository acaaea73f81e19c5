from enum import StrEnum


class PatchV1TasksIdBodyScheduleType1DstSkipped(StrEnum):
    SHIFT = "shift"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
