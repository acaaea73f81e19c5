from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_v1_tasks_id_audit_response_200_counts import GetV1TasksIdAuditResponse200Counts
    from ..models.get_v1_tasks_id_audit_response_200_occurrences_item import GetV1TasksIdAuditResponse200OccurrencesItem


T = TypeVar("T", bound="GetV1TasksIdAuditResponse200")


@_attrs_define
class GetV1TasksIdAuditResponse200:
    """
    Attributes:
        task_id (str):
        from_ (str):
        to (str):
        occurrences (list[GetV1TasksIdAuditResponse200OccurrencesItem]):
        counts (GetV1TasksIdAuditResponse200Counts):
    """

    task_id: str
    from_: str
    to: str
    occurrences: list[GetV1TasksIdAuditResponse200OccurrencesItem]
    counts: GetV1TasksIdAuditResponse200Counts

    def to_dict(self) -> dict[str, Any]:
        task_id = self.task_id

        from_ = self.from_

        to = self.to

        occurrences = []
        for occurrences_item_data in self.occurrences:
            occurrences_item = occurrences_item_data.to_dict()
            occurrences.append(occurrences_item)

        counts = self.counts.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "taskId": task_id,
                "from": from_,
                "to": to,
                "occurrences": occurrences,
                "counts": counts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.get_v1_tasks_id_audit_response_200_counts import GetV1TasksIdAuditResponse200Counts  # noqa: PLC0415
        from ..models.get_v1_tasks_id_audit_response_200_occurrences_item import (
            GetV1TasksIdAuditResponse200OccurrencesItem,  # noqa: PLC0415
        )

        d = dict(src_dict)
        task_id = d.pop("taskId")

        from_ = d.pop("from")

        to = d.pop("to")

        occurrences = []
        _occurrences = d.pop("occurrences")
        for occurrences_item_data in _occurrences:
            occurrences_item = GetV1TasksIdAuditResponse200OccurrencesItem.from_dict(occurrences_item_data)

            occurrences.append(occurrences_item)

        counts = GetV1TasksIdAuditResponse200Counts.from_dict(d.pop("counts"))

        get_v1_tasks_id_audit_response_200 = cls(
            task_id=task_id,
            from_=from_,
            to=to,
            occurrences=occurrences,
            counts=counts,
        )

        return get_v1_tasks_id_audit_response_200
