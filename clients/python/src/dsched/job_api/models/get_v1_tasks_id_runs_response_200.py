from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job import Job


T = TypeVar("T", bound="GetV1TasksIdRunsResponse200")


@_attrs_define
class GetV1TasksIdRunsResponse200:
    """
    Attributes:
        runs (list[Job]):
        next_page_token (str | Unset):
    """

    runs: list[Job]
    next_page_token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)

        next_page_token = self.next_page_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "runs": runs,
            }
        )
        if next_page_token is not UNSET:
            field_dict["nextPageToken"] = next_page_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job import Job  # noqa: PLC0415

        d = dict(src_dict)
        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:
            runs_item = Job.from_dict(runs_item_data)

            runs.append(runs_item)

        next_page_token = d.pop("nextPageToken", UNSET)

        get_v1_tasks_id_runs_response_200 = cls(
            runs=runs,
            next_page_token=next_page_token,
        )

        return get_v1_tasks_id_runs_response_200
