from enum import StrEnum


class TaskOverlapPolicy(StrEnum):
    ALLOW = "allow"
    FORBID = "forbid"

    def __str__(self) -> str:
        return str(self.value)
