from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1WorkflowsIdNodesNodeIdSignalBody")


@_attrs_define
class PostV1WorkflowsIdNodesNodeIdSignalBody:
    """
    Attributes:
        payload (Any | Unset): becomes the node’s output, given to children with `inputs: "parents"`
    """

    payload: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        payload = self.payload

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if payload is not UNSET:
            field_dict["payload"] = payload

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        payload = d.pop("payload", UNSET)

        post_v1_workflows_id_nodes_node_id_signal_body = cls(
            payload=payload,
        )

        return post_v1_workflows_id_nodes_node_id_signal_body
