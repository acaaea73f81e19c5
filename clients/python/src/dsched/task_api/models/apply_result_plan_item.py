from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.apply_result_plan_item_action import ApplyResultPlanItemAction
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.apply_result_plan_item_changes_item import ApplyResultPlanItemChangesItem


T = TypeVar("T", bound="ApplyResultPlanItem")


@_attrs_define
class ApplyResultPlanItem:
    """
    Attributes:
        key (str):
        action (ApplyResultPlanItemAction):
        id (str):
        description (str): the schedule in one sentence
        changes (list[ApplyResultPlanItemChangesItem] | Unset): an update, field by field
    """

    key: str
    action: ApplyResultPlanItemAction
    id: str
    description: str
    changes: list[ApplyResultPlanItemChangesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        action = self.action.value

        id = self.id

        description = self.description

        changes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.changes, Unset):
            changes = []
            for changes_item_data in self.changes:
                changes_item = changes_item_data.to_dict()
                changes.append(changes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
                "action": action,
                "id": id,
                "description": description,
            }
        )
        if changes is not UNSET:
            field_dict["changes"] = changes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.apply_result_plan_item_changes_item import ApplyResultPlanItemChangesItem  # noqa: PLC0415

        d = dict(src_dict)
        key = d.pop("key")

        action = ApplyResultPlanItemAction(d.pop("action"))

        id = d.pop("id")

        description = d.pop("description")

        _changes = d.pop("changes", UNSET)
        changes: list[ApplyResultPlanItemChangesItem] | Unset = UNSET
        if _changes is not UNSET:
            changes = []
            for changes_item_data in _changes:
                changes_item = ApplyResultPlanItemChangesItem.from_dict(changes_item_data)

                changes.append(changes_item)

        apply_result_plan_item = cls(
            key=key,
            action=action,
            id=id,
            description=description,
            changes=changes,
        )

        return apply_result_plan_item
