from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workflow_summary import WorkflowSummary


T = TypeVar("T", bound="GetV1WorkflowsResponse200")


@_attrs_define
class GetV1WorkflowsResponse200:
    """
    Attributes:
        workflows (list[WorkflowSummary]):
        next_page_token (str | Unset):
    """

    workflows: list[WorkflowSummary]
    next_page_token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        workflows = []
        for workflows_item_data in self.workflows:
            workflows_item = workflows_item_data.to_dict()
            workflows.append(workflows_item)

        next_page_token = self.next_page_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workflows": workflows,
            }
        )
        if next_page_token is not UNSET:
            field_dict["nextPageToken"] = next_page_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_summary import WorkflowSummary  # noqa: PLC0415

        d = dict(src_dict)
        workflows = []
        _workflows = d.pop("workflows")
        for workflows_item_data in _workflows:
            workflows_item = WorkflowSummary.from_dict(workflows_item_data)

            workflows.append(workflows_item)

        next_page_token = d.pop("nextPageToken", UNSET)

        get_v1_workflows_response_200 = cls(
            workflows=workflows,
            next_page_token=next_page_token,
        )

        return get_v1_workflows_response_200
