from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_workflow_nodes_item_map_target_method import (
    PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_map_target_headers import (
        PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders,
    )


T = TypeVar("T", bound="PatchV1TasksIdBodyWorkflowNodesItemMapTarget")


@_attrs_define
class PatchV1TasksIdBodyWorkflowNodesItemMapTarget:
    """each item's call: the item is its body, its index the `Dsched-Map-Index` header

    Attributes:
        url (str):
        method (PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod | Unset):  Default:
            PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod.POST.
        headers (PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders | Unset):
        body (Any | Unset):
        timeout_ms (int | Unset):  Default: 30000.
    """

    url: str
    method: PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod | Unset = (
        PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod.POST
    )
    headers: PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders | Unset = UNSET
    body: Any | Unset = UNSET
    timeout_ms: int | Unset = 30000

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        method: str | Unset = UNSET
        if not isinstance(self.method, Unset):
            method = self.method.value

        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        body = self.body

        timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if method is not UNSET:
            field_dict["method"] = method
        if headers is not UNSET:
            field_dict["headers"] = headers
        if body is not UNSET:
            field_dict["body"] = body
        if timeout_ms is not UNSET:
            field_dict["timeoutMs"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_map_target_headers import (
            PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders,  # noqa: PLC0415
        )

        d = dict(src_dict)
        url = d.pop("url")

        _method = d.pop("method", UNSET)
        method: PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod | Unset
        if isinstance(_method, Unset):
            method = UNSET
        else:
            method = PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod(_method)

        _headers = d.pop("headers", UNSET)
        headers: PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders | Unset
        if isinstance(_headers, Unset):
            headers = UNSET
        else:
            headers = PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders.from_dict(_headers)

        body = d.pop("body", UNSET)

        timeout_ms = d.pop("timeoutMs", UNSET)

        patch_v1_tasks_id_body_workflow_nodes_item_map_target = cls(
            url=url,
            method=method,
            headers=headers,
            body=body,
            timeout_ms=timeout_ms,
        )

        return patch_v1_tasks_id_body_workflow_nodes_item_map_target
