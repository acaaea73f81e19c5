from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.get_v1_tasks_id_audit_response_200_occurrences_item_status import (
    GetV1TasksIdAuditResponse200OccurrencesItemStatus,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="GetV1TasksIdAuditResponse200OccurrencesItem")


@_attrs_define
class GetV1TasksIdAuditResponse200OccurrencesItem:
    """
    Attributes:
        scheduled_for (str):
        status (GetV1TasksIdAuditResponse200OccurrencesItemStatus):
        job_id (str | Unset):
        reason (str | Unset):
        moved_to (str | Unset): an excluded occurrence that a calendar moved: the fire time it moved to
    """

    scheduled_for: str
    status: GetV1TasksIdAuditResponse200OccurrencesItemStatus
    job_id: str | Unset = UNSET
    reason: str | Unset = UNSET
    moved_to: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        scheduled_for = self.scheduled_for

        status = self.status.value

        job_id = self.job_id

        reason = self.reason

        moved_to = self.moved_to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "scheduledFor": scheduled_for,
                "status": status,
            }
        )
        if job_id is not UNSET:
            field_dict["jobId"] = job_id
        if reason is not UNSET:
            field_dict["reason"] = reason
        if moved_to is not UNSET:
            field_dict["movedTo"] = moved_to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        scheduled_for = d.pop("scheduledFor")

        status = GetV1TasksIdAuditResponse200OccurrencesItemStatus(d.pop("status"))

        job_id = d.pop("jobId", UNSET)

        reason = d.pop("reason", UNSET)

        moved_to = d.pop("movedTo", UNSET)

        get_v1_tasks_id_audit_response_200_occurrences_item = cls(
            scheduled_for=scheduled_for,
            status=status,
            job_id=job_id,
            reason=reason,
            moved_to=moved_to,
        )

        return get_v1_tasks_id_audit_response_200_occurrences_item
