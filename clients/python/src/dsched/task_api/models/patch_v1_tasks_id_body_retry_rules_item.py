from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_retry_rules_item_action import PatchV1TasksIdBodyRetryRulesItemAction
from ..models.patch_v1_tasks_id_body_retry_rules_item_status_type_1 import PatchV1TasksIdBodyRetryRulesItemStatusType1

T = TypeVar("T", bound="PatchV1TasksIdBodyRetryRulesItem")


@_attrs_define
class PatchV1TasksIdBodyRetryRulesItem:
    """
    Attributes:
        status (int | PatchV1TasksIdBodyRetryRulesItemStatusType1):
        action (PatchV1TasksIdBodyRetryRulesItemAction):
    """

    status: int | PatchV1TasksIdBodyRetryRulesItemStatusType1
    action: PatchV1TasksIdBodyRetryRulesItemAction

    def to_dict(self) -> dict[str, Any]:
        status: int | str
        if isinstance(self.status, PatchV1TasksIdBodyRetryRulesItemStatusType1):
            status = self.status.value
        else:
            status = self.status

        action = self.action.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "action": action,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_status(data: object) -> int | PatchV1TasksIdBodyRetryRulesItemStatusType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = PatchV1TasksIdBodyRetryRulesItemStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | PatchV1TasksIdBodyRetryRulesItemStatusType1, data)

        status = _parse_status(d.pop("status"))

        action = PatchV1TasksIdBodyRetryRulesItemAction(d.pop("action"))

        patch_v1_tasks_id_body_retry_rules_item = cls(
            status=status,
            action=action,
        )

        return patch_v1_tasks_id_body_retry_rules_item
