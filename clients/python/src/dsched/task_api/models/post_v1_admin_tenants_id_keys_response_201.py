from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1AdminTenantsIdKeysResponse201")


@_attrs_define
class PostV1AdminTenantsIdKeysResponse201:
    """
    Attributes:
        id (str):
        api_key (str):
    """

    id: str
    api_key: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        api_key = self.api_key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "apiKey": api_key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        api_key = d.pop("apiKey")

        post_v1_admin_tenants_id_keys_response_201 = cls(
            id=id,
            api_key=api_key,
        )

        return post_v1_admin_tenants_id_keys_response_201
