from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JobAttemptsItem")


@_attrs_define
class JobAttemptsItem:
    """
    Attributes:
        attempt (int):
        started_at (str):
        executor (str):
        finished_at (str | Unset):
        status (int | Unset):
        error (str | Unset):
        error_class (str | Unset):
        duration_ms (int | Unset):
        trace_id (str | Unset): The occurrence's OpenTelemetry trace (W3C trace id), the same for each of its attempts;
            the `traceparent` of every call it made is of this trace.
    """

    attempt: int
    started_at: str
    executor: str
    finished_at: str | Unset = UNSET
    status: int | Unset = UNSET
    error: str | Unset = UNSET
    error_class: str | Unset = UNSET
    duration_ms: int | Unset = UNSET
    trace_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        started_at = self.started_at

        executor = self.executor

        finished_at = self.finished_at

        status = self.status

        error = self.error

        error_class = self.error_class

        duration_ms = self.duration_ms

        trace_id = self.trace_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "startedAt": started_at,
                "executor": executor,
            }
        )
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if status is not UNSET:
            field_dict["status"] = status
        if error is not UNSET:
            field_dict["error"] = error
        if error_class is not UNSET:
            field_dict["errorClass"] = error_class
        if duration_ms is not UNSET:
            field_dict["durationMs"] = duration_ms
        if trace_id is not UNSET:
            field_dict["traceId"] = trace_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        started_at = d.pop("startedAt")

        executor = d.pop("executor")

        finished_at = d.pop("finishedAt", UNSET)

        status = d.pop("status", UNSET)

        error = d.pop("error", UNSET)

        error_class = d.pop("errorClass", UNSET)

        duration_ms = d.pop("durationMs", UNSET)

        trace_id = d.pop("traceId", UNSET)

        job_attempts_item = cls(
            attempt=attempt,
            started_at=started_at,
            executor=executor,
            finished_at=finished_at,
            status=status,
            error=error,
            error_class=error_class,
            duration_ms=duration_ms,
            trace_id=trace_id,
        )

        return job_attempts_item
