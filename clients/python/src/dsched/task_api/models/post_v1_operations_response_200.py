from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1OperationsResponse200")


@_attrs_define
class PostV1OperationsResponse200:
    """
    Attributes:
        dry_run (bool):
        matched (int):
    """

    dry_run: bool
    matched: int

    def to_dict(self) -> dict[str, Any]:
        dry_run = self.dry_run

        matched = self.matched

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dryRun": dry_run,
                "matched": matched,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        dry_run = d.pop("dryRun")

        matched = d.pop("matched")

        post_v1_operations_response_200 = cls(
            dry_run=dry_run,
            matched=matched,
        )

        return post_v1_operations_response_200
