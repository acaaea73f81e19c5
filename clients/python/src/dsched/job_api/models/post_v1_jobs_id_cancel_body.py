from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1JobsIdCancelBody")


@_attrs_define
class PostV1JobsIdCancelBody:
    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        post_v1_jobs_id_cancel_body = cls()

        return post_v1_jobs_id_cancel_body
