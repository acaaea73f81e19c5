from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.task_workflow_nodes_item_target_method import TaskWorkflowNodesItemTargetMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_workflow_nodes_item_target_headers import TaskWorkflowNodesItemTargetHeaders


T = TypeVar("T", bound="TaskWorkflowNodesItemTarget")


@_attrs_define
class TaskWorkflowNodesItemTarget:
    """required for a `call` node

    Attributes:
        url (str):
        method (TaskWorkflowNodesItemTargetMethod):  Default: TaskWorkflowNodesItemTargetMethod.POST.
        headers (TaskWorkflowNodesItemTargetHeaders):
        timeout_ms (int):  Default: 30000.
        body (Any | Unset):
    """

    url: str
    headers: TaskWorkflowNodesItemTargetHeaders
    method: TaskWorkflowNodesItemTargetMethod = TaskWorkflowNodesItemTargetMethod.POST
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
        from ..models.task_workflow_nodes_item_target_headers import TaskWorkflowNodesItemTargetHeaders  # noqa: PLC0415

        d = dict(src_dict)
        url = d.pop("url")

        method = TaskWorkflowNodesItemTargetMethod(d.pop("method"))

        headers = TaskWorkflowNodesItemTargetHeaders.from_dict(d.pop("headers"))

        timeout_ms = d.pop("timeoutMs")

        body = d.pop("body", UNSET)

        task_workflow_nodes_item_target = cls(
            url=url,
            method=method,
            headers=headers,
            timeout_ms=timeout_ms,
            body=body,
        )

        return task_workflow_nodes_item_target
