from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_workflow_nodes_item_wait_on_timeout import (
    PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchV1TasksIdBodyWorkflowNodesItemWait")


@_attrs_define
class PatchV1TasksIdBodyWorkflowNodesItemWait:
    """required for a `wait` node

    Attributes:
        timeout_s (int): how long the node waits for its signal
        on_timeout (PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout | Unset): at the timeout: `fail` the node (the run
            goes on by its failure policy) or `succeed` it Default: PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout.FAIL.
    """

    timeout_s: int
    on_timeout: PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout | Unset = (
        PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout.FAIL
    )

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
        on_timeout: PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout | Unset
        if isinstance(_on_timeout, Unset):
            on_timeout = UNSET
        else:
            on_timeout = PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout(_on_timeout)

        patch_v1_tasks_id_body_workflow_nodes_item_wait = cls(
            timeout_s=timeout_s,
            on_timeout=on_timeout,
        )

        return patch_v1_tasks_id_body_workflow_nodes_item_wait
