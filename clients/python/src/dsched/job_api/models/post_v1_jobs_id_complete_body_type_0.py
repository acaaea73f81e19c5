from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1JobsIdCompleteBodyType0")


@_attrs_define
class PostV1JobsIdCompleteBodyType0:
    """
    Attributes:
        outcome (Literal['failed'] | Unset):
    """

    outcome: Literal["failed"] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if outcome is not UNSET:
            field_dict["outcome"] = outcome

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        outcome = cast(Literal["failed"] | Unset, d.pop("outcome", UNSET))
        if outcome != "failed" and not isinstance(outcome, Unset):
            raise ValueError(f"outcome must match const 'failed', got '{outcome}'")

        post_v1_jobs_id_complete_body_type_0 = cls(
            outcome=outcome,
        )

        post_v1_jobs_id_complete_body_type_0.additional_properties = d
        return post_v1_jobs_id_complete_body_type_0

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
