from enum import StrEnum


class ErrorErrorCode(StrEnum):
    CONFLICT = "conflict"
    FAILED_PRECONDITION = "failed_precondition"
    INTERNAL = "internal"
    INVALID_ARGUMENT = "invalid_argument"
    NOT_FOUND = "not_found"
    PERMISSION_DENIED = "permission_denied"
    RESOURCE_EXHAUSTED = "resource_exhausted"
    UNAUTHENTICATED = "unauthenticated"

    def __str__(self) -> str:
        return str(self.value)
