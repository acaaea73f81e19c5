from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.post_v1_workflows_body_nodes_item_wait_on_timeout import PostV1WorkflowsBodyNodesItemWaitOnTimeout
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1WorkflowsBodyNodesItemWait")


@_attrs_define
class PostV1WorkflowsBodyNodesItemWait:
    """required for a `wait` node

    Attributes:
        timeout_s (int): how long the node waits for its signal
        on_timeout (PostV1WorkflowsBodyNodesItemWaitOnTimeout | Unset): at the timeout: `fail` the node (the run goes on
            by its failure policy) or `succeed` it Default: PostV1WorkflowsBodyNodesItemWaitOnTimeout.FAIL.
    """

    timeout_s: int
    on_timeout: PostV1WorkflowsBodyNodesItemWaitOnTimeout | Unset = PostV1WorkflowsBodyNodesItemWaitOnTimeout.FAIL

    def to_dict(self) -> dict[str, Any]:
        timeout_s = self.timeout_s

        on_timeout: str | Unset = UNSET
        if not isinstance(self.on_timeout, Unset):
            on_timeout = self.on_timeout.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "timeoutS": timeout_s,
            }
        )
        if on_timeout is not UNSET:
            field_dict["onTimeout"] = on_timeout

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        timeout_s = d.pop("timeoutS")

        _on_timeout = d.pop("onTimeout", UNSET)
        on_timeout: PostV1WorkflowsBodyNodesItemWaitOnTimeout | Unset
        if isinstance(_on_timeout, Unset):
            on_timeout = UNSET
        else:
            on_timeout = PostV1WorkflowsBodyNodesItemWaitOnTimeout(_on_timeout)

        post_v1_workflows_body_nodes_item_wait = cls(
            timeout_s=timeout_s,
            on_timeout=on_timeout,
        )

        return post_v1_workflows_body_nodes_item_wait
