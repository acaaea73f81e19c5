from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ApplyResultPlanItemChangesItem")


@_attrs_define
class ApplyResultPlanItemChangesItem:
    """
    Attributes:
        field (str):
        from_ (Any | Unset):
        to (Any | Unset):
    """

    field: str
    from_: Any | Unset = UNSET
    to: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        field = self.field

        from_ = self.from_

        to = self.to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "field": field,
            }
        )
        if from_ is not UNSET:
            field_dict["from"] = from_
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        field = d.pop("field")

        from_ = d.pop("from", UNSET)

        to = d.pop("to", UNSET)

        apply_result_plan_item_changes_item = cls(
            field=field,
            from_=from_,
            to=to,
        )

        return apply_result_plan_item_changes_item
