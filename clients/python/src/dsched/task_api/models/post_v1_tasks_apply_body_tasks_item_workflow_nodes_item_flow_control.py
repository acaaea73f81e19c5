from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl")


@_attrs_define
class PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl:
    """flow control per key (docs/flow-control.md): over-limit calls wait, they do not fail

    Attributes:
        key (str): calls of this tenant sharing a key share the limits across the fleet (e.g. one endpoint)
        parallelism (int | Unset): calls of the key in flight at once
        rate_per_second (float | Unset): calls of the key started per second
    """

    key: str
    parallelism: int | Unset = UNSET
    rate_per_second: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        parallelism = self.parallelism

        rate_per_second = self.rate_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
            }
        )
        if parallelism is not UNSET:
            field_dict["parallelism"] = parallelism
        if rate_per_second is not UNSET:
            field_dict["ratePerSecond"] = rate_per_second

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        parallelism = d.pop("parallelism", UNSET)

        rate_per_second = d.pop("ratePerSecond", UNSET)

        post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_flow_control = cls(
            key=key,
            parallelism=parallelism,
            rate_per_second=rate_per_second,
        )

        return post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_flow_control
