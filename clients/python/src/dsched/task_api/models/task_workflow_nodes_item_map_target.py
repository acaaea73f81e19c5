from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.task_workflow_nodes_item_map_target_method import TaskWorkflowNodesItemMapTargetMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_workflow_nodes_item_map_target_headers import TaskWorkflowNodesItemMapTargetHeaders


T = TypeVar("T", bound="TaskWorkflowNodesItemMapTarget")


@_attrs_define
class TaskWorkflowNodesItemMapTarget:
    """each item's call: the item is its body, its index the `Dsched-Map-Index` header

    Attributes:
        url (str):
        method (TaskWorkflowNodesItemMapTargetMethod):  Default: TaskWorkflowNodesItemMapTargetMethod.POST.
        headers (TaskWorkflowNodesItemMapTargetHeaders):
        timeout_ms (int):  Default: 30000.
        body (Any | Unset):
    """

    url: str
    headers: TaskWorkflowNodesItemMapTargetHeaders
    method: TaskWorkflowNodesItemMapTargetMethod = TaskWorkflowNodesItemMapTargetMethod.POST
    timeout_ms: int = 30000
    body: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        method = self.method.value

        headers = self.headers.to_dict()

        timeout_ms = self.timeout_ms

        body = self.body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "method": method,
                "headers": headers,
                "timeoutMs": timeout_ms,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.task_workflow_nodes_item_map_target_headers import TaskWorkflowNodesItemMapTargetHeaders  # noqa: PLC0415

        d = dict(src_dict)
        url = d.pop("url")

        method = TaskWorkflowNodesItemMapTargetMethod(d.pop("method"))

        headers = TaskWorkflowNodesItemMapTargetHeaders.from_dict(d.pop("headers"))

        timeout_ms = d.pop("timeoutMs")

        body = d.pop("body", UNSET)

        task_workflow_nodes_item_map_target = cls(
            url=url,
            method=method,
            headers=headers,
            timeout_ms=timeout_ms,
            body=body,
        )

        return task_workflow_nodes_item_map_target
