from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.apply_result_plan_item import ApplyResultPlanItem


T = TypeVar("T", bound="ApplyResult")


@_attrs_define
class ApplyResult:
    """
    Attributes:
        dry_run (bool):
        created (list[str]): keys of the tasks created
        updated (list[str]): keys of the tasks updated
        deleted (list[str]): keys of the tasks deleted (prune)
        unchanged (list[str]): keys of the tasks the file leaves as they are
        plan (list[ApplyResultPlanItem]):
    """

    dry_run: bool
    created: list[str]
    updated: list[str]
    deleted: list[str]
    unchanged: list[str]
    plan: list[ApplyResultPlanItem]

    def to_dict(self) -> dict[str, Any]:
        dry_run = self.dry_run

        created = self.created

        updated = self.updated

        deleted = self.deleted

        unchanged = self.unchanged

        plan = []
        for plan_item_data in self.plan:
            plan_item = plan_item_data.to_dict()
            plan.append(plan_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "dryRun": dry_run,
                "created": created,
                "updated": updated,
                "deleted": deleted,
                "unchanged": unchanged,
                "plan": plan,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.apply_result_plan_item import ApplyResultPlanItem  # noqa: PLC0415

        d = dict(src_dict)
        dry_run = d.pop("dryRun")

        created = cast(list[str], d.pop("created"))

        updated = cast(list[str], d.pop("updated"))

        deleted = cast(list[str], d.pop("deleted"))

        unchanged = cast(list[str], d.pop("unchanged"))

        plan = []
        _plan = d.pop("plan")
        for plan_item_data in _plan:
            plan_item = ApplyResultPlanItem.from_dict(plan_item_data)

            plan.append(plan_item)

        apply_result = cls(
            dry_run=dry_run,
            created=created,
            updated=updated,
            deleted=deleted,
            unchanged=unchanged,
            plan=plan,
        )

        return apply_result
