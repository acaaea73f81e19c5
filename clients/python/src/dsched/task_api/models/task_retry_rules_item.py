from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.task_retry_rules_item_action import TaskRetryRulesItemAction
from ..models.task_retry_rules_item_status_type_1 import TaskRetryRulesItemStatusType1

T = TypeVar("T", bound="TaskRetryRulesItem")


@_attrs_define
class TaskRetryRulesItem:
    """
    Attributes:
        status (int | TaskRetryRulesItemStatusType1):
        action (TaskRetryRulesItemAction):
    """

    status: int | TaskRetryRulesItemStatusType1
    action: TaskRetryRulesItemAction

    def to_dict(self) -> dict[str, Any]:
        status: int | str
        if isinstance(self.status, TaskRetryRulesItemStatusType1):
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

        def _parse_status(data: object) -> int | TaskRetryRulesItemStatusType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = TaskRetryRulesItemStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | TaskRetryRulesItemStatusType1, data)

        status = _parse_status(d.pop("status"))

        action = TaskRetryRulesItemAction(d.pop("action"))

        task_retry_rules_item = cls(
            status=status,
            action=action,
        )

        return task_retry_rules_item
