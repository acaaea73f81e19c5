from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workflow_node import WorkflowNode


T = TypeVar("T", bound="GetV1WorkflowsIdNodesNodeIdParentsResponse200")


@_attrs_define
class GetV1WorkflowsIdNodesNodeIdParentsResponse200:
    """
    Attributes:
        parents (list[WorkflowNode]):
        next_page_token (str | Unset):
    """

    parents: list[WorkflowNode]
    next_page_token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        parents = []
        for parents_item_data in self.parents:
            parents_item = parents_item_data.to_dict()
            parents.append(parents_item)

        next_page_token = self.next_page_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "parents": parents,
            }
        )
        if next_page_token is not UNSET:
            field_dict["nextPageToken"] = next_page_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_node import WorkflowNode  # noqa: PLC0415

        d = dict(src_dict)
        parents = []
        _parents = d.pop("parents")
        for parents_item_data in _parents:
            parents_item = WorkflowNode.from_dict(parents_item_data)

            parents.append(parents_item)

        next_page_token = d.pop("nextPageToken", UNSET)

        get_v1_workflows_id_nodes_node_id_parents_response_200 = cls(
            parents=parents,
            next_page_token=next_page_token,
        )

        return get_v1_workflows_id_nodes_node_id_parents_response_200
