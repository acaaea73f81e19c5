from enum import StrEnum


class ApplyResultPlanItemAction(StrEnum):
    CREATE = "create"
    DELETE = "delete"
    UNCHANGED = "unchanged"
    UPDATE = "update"

    def __str__(self) -> str:
        return str(self.value)
