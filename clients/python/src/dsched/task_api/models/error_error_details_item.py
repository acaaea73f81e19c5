from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ErrorErrorDetailsItem")


@_attrs_define
class ErrorErrorDetailsItem:
    """
    Attributes:
        field (str):
        issue (str):
    """

    field: str
    issue: str

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        issue = self.issue

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
                "issue": issue,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field = d.pop("field")

        issue = d.pop("issue")

        error_error_details_item = cls(
            field=field,
            issue=issue,
        )

        return error_error_details_item
