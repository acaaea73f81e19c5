from enum import StrEnum


class PostV1TasksApplyBodyTasksItemMisfirePolicy(StrEnum):
    FIRE_ALL = "fire_all"
    FIRE_ONCE = "fire_once"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
