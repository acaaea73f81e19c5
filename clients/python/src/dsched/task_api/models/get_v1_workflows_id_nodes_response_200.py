from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workflow_node import WorkflowNode


T = TypeVar("T", bound="GetV1WorkflowsIdNodesResponse200")


@_attrs_define
class GetV1WorkflowsIdNodesResponse200:
    """
    Attributes:
        nodes (list[WorkflowNode]):
        next_page_token (str | Unset):
    """

    nodes: list[WorkflowNode]
    next_page_token: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        next_page_token = self.next_page_token

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "nodes": nodes,
            }
        )
        if next_page_token is not UNSET:
            field_dict["nextPageToken"] = next_page_token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_node import WorkflowNode  # noqa: PLC0415

        d = dict(src_dict)
        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = WorkflowNode.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        next_page_token = d.pop("nextPageToken", UNSET)

        get_v1_workflows_id_nodes_response_200 = cls(
            nodes=nodes,
            next_page_token=next_page_token,
        )

        return get_v1_workflows_id_nodes_response_200
