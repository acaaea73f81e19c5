from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.task_workflow_nodes_item_retry_rules_item_action import TaskWorkflowNodesItemRetryRulesItemAction
from ..models.task_workflow_nodes_item_retry_rules_item_status_type_1 import (
    TaskWorkflowNodesItemRetryRulesItemStatusType1,
)

T = TypeVar("T", bound="TaskWorkflowNodesItemRetryRulesItem")


@_attrs_define
class TaskWorkflowNodesItemRetryRulesItem:
    """
    Attributes:
        status (int | TaskWorkflowNodesItemRetryRulesItemStatusType1):
        action (TaskWorkflowNodesItemRetryRulesItemAction):
    """

    status: int | TaskWorkflowNodesItemRetryRulesItemStatusType1
    action: TaskWorkflowNodesItemRetryRulesItemAction

    def to_dict(self) -> dict[str, Any]:
        status: int | str
        if isinstance(self.status, TaskWorkflowNodesItemRetryRulesItemStatusType1):
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

        def _parse_status(data: object) -> int | TaskWorkflowNodesItemRetryRulesItemStatusType1:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_1 = TaskWorkflowNodesItemRetryRulesItemStatusType1(data)

                return status_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(int | TaskWorkflowNodesItemRetryRulesItemStatusType1, data)

        status = _parse_status(d.pop("status"))

        action = TaskWorkflowNodesItemRetryRulesItemAction(d.pop("action"))

        task_workflow_nodes_item_retry_rules_item = cls(
            status=status,
            action=action,
        )

        return task_workflow_nodes_item_retry_rules_item
