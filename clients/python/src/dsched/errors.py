"""Typed errors: every answer of the APIs outside 2xx raises a DschedApiError subclass.

The subclass is chosen by the API's `error.code` (invalid_argument -> InvalidArgumentError, ...),
so callers branch on the type or on `code`, never on message text. `details` names the fields
the API found wrong (`issue_for("schedule.expression")`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any


@dataclass(frozen=True)
class ErrorDetail:
    field: str
    issue: str


class DschedError(Exception):
    """Any error this package raises."""


class DschedApiError(DschedError):
    """The API answered outside 2xx. `code` is the API's `error.code` (`internal` when the body was not
    the API's error document)."""

    code_name = ""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: list[ErrorDetail],
        body: Any,
        retry_after: float | None = None,
        request: str = "",
    ) -> None:
        super().__init__(f"{code}: {message}" + (f" ({request})" if request else ""))
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.body = body
        #: Seconds from `Retry-After` (a 429 or a 503), when the server sent one.
        self.retry_after = retry_after

    def issue_for(self, field: str) -> str | None:
        """The issue the API reported for a field, if it named that field."""
        return next((d.issue for d in self.details if d.field == field), None)


class InvalidArgumentError(DschedApiError):
    """400: the request was refused and nothing changed; `details` names the fields."""

    code_name = "invalid_argument"


class PageTokenError(InvalidArgumentError):
    """The API refused a page token (malformed, or made by another query). A page walk raises this
    rather than restarting from the first page, which would repeat items."""


class UnauthenticatedError(DschedApiError):
    code_name = "unauthenticated"


class PermissionDeniedError(DschedApiError):
    code_name = "permission_denied"


class NotFoundError(DschedApiError):
    """404: missing, or another tenant's (the API does not tell them apart)."""

    code_name = "not_found"


class ConflictError(DschedApiError):
    code_name = "conflict"


class FailedPreconditionError(DschedApiError):
    code_name = "failed_precondition"


class ResourceExhaustedError(DschedApiError):
    """429: a rate limit or quota; `retry_after` says when to ask again."""

    code_name = "resource_exhausted"


class InternalError(DschedApiError):
    code_name = "internal"


_BY_CODE: dict[str, type[DschedApiError]] = {
    cls.code_name: cls
    for cls in (
        InvalidArgumentError,
        UnauthenticatedError,
        PermissionDeniedError,
        NotFoundError,
        ConflictError,
        FailedPreconditionError,
        ResourceExhaustedError,
        InternalError,
    )
}


class DschedNetworkError(DschedError):
    """No answer (connection refused, reset, timeout) after the retries allowed."""


class DschedConfigError(DschedError):
    """The client lacks what a call needs; `setting` names the option or environment variable."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(message)
        self.setting = setting


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """`Retry-After` as seconds: a number of seconds, or an HTTP date."""
    if value is None:
        return None
    try:
        seconds = float(value)
        return seconds if seconds >= 0 else None
    except ValueError:
        pass
    try:
        at = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (at - (now or datetime.now(timezone.utc))).total_seconds())


def api_error(status: int, content: bytes, headers: Any, request: str = "") -> DschedApiError:
    """The typed error of an answer outside 2xx, from the API's error document when it is one."""
    try:
        body: Any = json.loads(content) if content else None
    except ValueError:
        body = content.decode("utf-8", errors="replace")
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    code = error.get("code") if isinstance(error.get("code"), str) else "internal"
    message = error.get("message") if isinstance(error.get("message"), str) else f"HTTP {status}"
    details = [
        ErrorDetail(field=str(d.get("field", "")), issue=str(d.get("issue", "")))
        for d in error.get("details", [])
        if isinstance(d, dict)
    ]
    cls = _BY_CODE.get(code, DschedApiError)
    if cls is InvalidArgumentError and any(d.field == "pageToken" for d in details):
        cls = PageTokenError
    return cls(
        status,
        code,
        message,
        details,
        body,
        retry_after=retry_after_seconds(headers.get("retry-after") if headers is not None else None),
        request=request,
    )
