from enum import StrEnum


class PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped(StrEnum):
    SHIFT = "shift"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
