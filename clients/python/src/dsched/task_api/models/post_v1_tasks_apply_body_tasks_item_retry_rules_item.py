from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.post_v1_tasks_apply_body_tasks_item_retry_rules_item_action import (
    PostV1TasksApplyBodyTasksItemRetryRulesItemAction,
)
from ..models.post_v1_tasks_apply_body_tasks_item_retry_rules_item_status_type_1 import (
    PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1,
)

T = TypeVar("T", bound="PostV1TasksApplyBodyTasksItemRetryRulesItem")


@_attrs_define
class PostV1TasksApplyBodyTasksItemRetryRulesItem:
    """
    Attributes:
        status (int | PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1):
        action (PostV1TasksApplyBodyTasksItemRetryRulesItemAction):
    """

    status: int | PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1
    action: PostV1TasksApplyBodyTasksItemRetryRulesItemAction

    def to_dict(self) -> dict[str, Any]:
        status: int | str
        if isinstance(self.status, PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1):
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

        def _parse_status(data: object) -> int | PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1, data)

        status = _parse_status(d.pop("status"))

        action = PostV1TasksApplyBodyTasksItemRetryRulesItemAction(d.pop("action"))

        post_v1_tasks_apply_body_tasks_item_retry_rules_item = cls(
            status=status,
            action=action,
        )

        return post_v1_tasks_apply_body_tasks_item_retry_rules_item
