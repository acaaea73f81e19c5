from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.post_v1_workflows_body_nodes_item_map_target_method import PostV1WorkflowsBodyNodesItemMapTargetMethod
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_workflows_body_nodes_item_map_target_headers import (
        PostV1WorkflowsBodyNodesItemMapTargetHeaders,
    )


T = TypeVar("T", bound="PostV1WorkflowsBodyNodesItemMapTarget")


@_attrs_define
class PostV1WorkflowsBodyNodesItemMapTarget:
    """each item's call: the item is its body, its index the `Dsched-Map-Index` header

    Attributes:
        url (str):
        method (PostV1WorkflowsBodyNodesItemMapTargetMethod | Unset):  Default:
            PostV1WorkflowsBodyNodesItemMapTargetMethod.POST.
        headers (PostV1WorkflowsBodyNodesItemMapTargetHeaders | Unset):
        body (Any | Unset):
        timeout_ms (int | Unset):  Default: 30000.
    """

    url: str
    method: PostV1WorkflowsBodyNodesItemMapTargetMethod | Unset = PostV1WorkflowsBodyNodesItemMapTargetMethod.POST
    headers: PostV1WorkflowsBodyNodesItemMapTargetHeaders | Unset = UNSET
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
        from ..models.post_v1_workflows_body_nodes_item_map_target_headers import (
            PostV1WorkflowsBodyNodesItemMapTargetHeaders,  # noqa: PLC0415
        )

        d = dict(src_dict)
        url = d.pop("url")

        _method = d.pop("method", UNSET)
        method: PostV1WorkflowsBodyNodesItemMapTargetMethod | Unset
        if isinstance(_method, Unset):
            method = UNSET
        else:
            method = PostV1WorkflowsBodyNodesItemMapTargetMethod(_method)

        _headers = d.pop("headers", UNSET)
        headers: PostV1WorkflowsBodyNodesItemMapTargetHeaders | Unset
        if isinstance(_headers, Unset):
            headers = UNSET
        else:
            headers = PostV1WorkflowsBodyNodesItemMapTargetHeaders.from_dict(_headers)

        body = d.pop("body", UNSET)

        timeout_ms = d.pop("timeoutMs", UNSET)

        post_v1_workflows_body_nodes_item_map_target = cls(
            url=url,
            method=method,
            headers=headers,
            body=body,
            timeout_ms=timeout_ms,
        )

        return post_v1_workflows_body_nodes_item_map_target
