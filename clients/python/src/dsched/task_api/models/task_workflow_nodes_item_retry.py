from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.task_workflow_nodes_item_retry_rules_item import TaskWorkflowNodesItemRetryRulesItem


T = TypeVar("T", bound="TaskWorkflowNodesItemRetry")


@_attrs_define
class TaskWorkflowNodesItemRetry:
    """
    Attributes:
        max_attempts (int):  Default: 5.
        initial_backoff_ms (int):  Default: 1000.
        max_backoff_ms (int):  Default: 300000.
        rules (list[TaskWorkflowNodesItemRetryRulesItem]):
    """

    rules: list[TaskWorkflowNodesItemRetryRulesItem]
    max_attempts: int = 5
    initial_backoff_ms: int = 1000
    max_backoff_ms: int = 300000

    def to_dict(self) -> dict[str, Any]:
        max_attempts = self.max_attempts

        initial_backoff_ms = self.initial_backoff_ms

        max_backoff_ms = self.max_backoff_ms

        rules = []
        for rules_item_data in self.rules:
            rules_item = rules_item_data.to_dict()
            rules.append(rules_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "maxAttempts": max_attempts,
                "initialBackoffMs": initial_backoff_ms,
                "maxBackoffMs": max_backoff_ms,
                "rules": rules,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.task_workflow_nodes_item_retry_rules_item import TaskWorkflowNodesItemRetryRulesItem  # noqa: PLC0415

        d = dict(src_dict)
        max_attempts = d.pop("maxAttempts")

        initial_backoff_ms = d.pop("initialBackoffMs")

        max_backoff_ms = d.pop("maxBackoffMs")

        rules = []
        _rules = d.pop("rules")
        for rules_item_data in _rules:
            rules_item = TaskWorkflowNodesItemRetryRulesItem.from_dict(rules_item_data)

            rules.append(rules_item)

        task_workflow_nodes_item_retry = cls(
            max_attempts=max_attempts,
            initial_backoff_ms=initial_backoff_ms,
            max_backoff_ms=max_backoff_ms,
            rules=rules,
        )

        return task_workflow_nodes_item_retry
