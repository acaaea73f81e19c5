from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_tasks_apply_body_tasks_item_retry_rules_item import (
        PostV1TasksApplyBodyTasksItemRetryRulesItem,
    )


T = TypeVar("T", bound="PostV1TasksApplyBodyTasksItemRetry")


@_attrs_define
class PostV1TasksApplyBodyTasksItemRetry:
    """
    Attributes:
        max_attempts (int | Unset):  Default: 5.
        initial_backoff_ms (int | Unset):  Default: 1000.
        max_backoff_ms (int | Unset):  Default: 300000.
        rules (list[PostV1TasksApplyBodyTasksItemRetryRulesItem] | Unset):
    """

    max_attempts: int | Unset = 5
    initial_backoff_ms: int | Unset = 1000
    max_backoff_ms: int | Unset = 300000
    rules: list[PostV1TasksApplyBodyTasksItemRetryRulesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        max_attempts = self.max_attempts

        initial_backoff_ms = self.initial_backoff_ms

        max_backoff_ms = self.max_backoff_ms

        rules: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.rules, Unset):
            rules = []
            for rules_item_data in self.rules:
                rules_item = rules_item_data.to_dict()
                rules.append(rules_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if max_attempts is not UNSET:
            field_dict["maxAttempts"] = max_attempts
        if initial_backoff_ms is not UNSET:
            field_dict["initialBackoffMs"] = initial_backoff_ms
        if max_backoff_ms is not UNSET:
            field_dict["maxBackoffMs"] = max_backoff_ms
        if rules is not UNSET:
            field_dict["rules"] = rules

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_tasks_apply_body_tasks_item_retry_rules_item import (
            PostV1TasksApplyBodyTasksItemRetryRulesItem,  # noqa: PLC0415
        )

        d = dict(src_dict)
        max_attempts = d.pop("maxAttempts", UNSET)

        initial_backoff_ms = d.pop("initialBackoffMs", UNSET)

        max_backoff_ms = d.pop("maxBackoffMs", UNSET)

        _rules = d.pop("rules", UNSET)
        rules: list[PostV1TasksApplyBodyTasksItemRetryRulesItem] | Unset = UNSET
        if _rules is not UNSET:
            rules = []
            for rules_item_data in _rules:
                rules_item = PostV1TasksApplyBodyTasksItemRetryRulesItem.from_dict(rules_item_data)

                rules.append(rules_item)

        post_v1_tasks_apply_body_tasks_item_retry = cls(
            max_attempts=max_attempts,
            initial_backoff_ms=initial_backoff_ms,
            max_backoff_ms=max_backoff_ms,
            rules=rules,
        )

        return post_v1_tasks_apply_body_tasks_item_retry
