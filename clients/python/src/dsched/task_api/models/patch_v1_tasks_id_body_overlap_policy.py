from enum import StrEnum


class PatchV1TasksIdBodyOverlapPolicy(StrEnum):
    ALLOW = "allow"
    FORBID = "forbid"

    def __str__(self) -> str:
        return str(self.value)
