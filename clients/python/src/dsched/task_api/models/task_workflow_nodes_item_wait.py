from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.task_workflow_nodes_item_wait_on_timeout import TaskWorkflowNodesItemWaitOnTimeout

T = TypeVar("T", bound="TaskWorkflowNodesItemWait")


@_attrs_define
class TaskWorkflowNodesItemWait:
    """required for a `wait` node

    Attributes:
        timeout_s (int): how long the node waits for its signal
        on_timeout (TaskWorkflowNodesItemWaitOnTimeout): at the timeout: `fail` the node (the run goes on by its failure
            policy) or `succeed` it Default: TaskWorkflowNodesItemWaitOnTimeout.FAIL.
    """

    timeout_s: int
    on_timeout: TaskWorkflowNodesItemWaitOnTimeout = TaskWorkflowNodesItemWaitOnTimeout.FAIL

    def to_dict(self) -> dict[str, Any]:
        timeout_s = self.timeout_s

        on_timeout = self.on_timeout.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "timeoutS": timeout_s,
                "onTimeout": on_timeout,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        timeout_s = d.pop("timeoutS")

        on_timeout = TaskWorkflowNodesItemWaitOnTimeout(d.pop("onTimeout"))

        task_workflow_nodes_item_wait = cls(
            timeout_s=timeout_s,
            on_timeout=on_timeout,
        )

        return task_workflow_nodes_item_wait
