from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_workflows_body_nodes_item_map_target import PostV1WorkflowsBodyNodesItemMapTarget


T = TypeVar("T", bound="PostV1WorkflowsBodyNodesItemMap")


@_attrs_define
class PostV1WorkflowsBodyNodesItemMap:
    """required for a `map` node

    Attributes:
        over (str): the parent whose output (a JSON array) is mapped over: one call per item
        target (PostV1WorkflowsBodyNodesItemMapTarget): each item's call: the item is its body, its index the `Dsched-
            Map-Index` header
        max_items (int | Unset): the most items; a longer array fails the node. Counted toward the run's 100,000 nodes
            at submission Default: 10000.
    """

    over: str
    target: PostV1WorkflowsBodyNodesItemMapTarget
    max_items: int | Unset = 10000

    def to_dict(self) -> dict[str, Any]:
        over = self.over

        target = self.target.to_dict()

        max_items = self.max_items

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "over": over,
                "target": target,
            }
        )
        if max_items is not UNSET:
            field_dict["maxItems"] = max_items

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_workflows_body_nodes_item_map_target import PostV1WorkflowsBodyNodesItemMapTarget  # noqa: PLC0415

        d = dict(src_dict)
        over = d.pop("over")

        target = PostV1WorkflowsBodyNodesItemMapTarget.from_dict(d.pop("target"))

        max_items = d.pop("maxItems", UNSET)

        post_v1_workflows_body_nodes_item_map = cls(
            over=over,
            target=target,
            max_items=max_items,
        )

        return post_v1_workflows_body_nodes_item_map
