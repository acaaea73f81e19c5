from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="WorkflowNodeMap")


@_attrs_define
class WorkflowNodeMap:
    """a map node

    Attributes:
        over (str): the parent whose output it maps over
        made (int): item nodes made so far (`<id>~<index>`, listed among the nodes)
        count (int | Unset): its items (the array’s length), once it started
    """

    over: str
    made: int
    count: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        over = self.over

        made = self.made

        count = self.count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "over": over,
                "made": made,
            }
        )
        if count is not UNSET:
            field_dict["count"] = count

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        over = d.pop("over")

        made = d.pop("made")

        count = d.pop("count", UNSET)

        workflow_node_map = cls(
            over=over,
            made=made,
            count=count,
        )

        return workflow_node_map
