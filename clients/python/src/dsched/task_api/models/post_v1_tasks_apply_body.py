from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_tasks_apply_body_tasks_item import PostV1TasksApplyBodyTasksItem


T = TypeVar("T", bound="PostV1TasksApplyBody")


@_attrs_define
class PostV1TasksApplyBody:
    """
    Attributes:
        tasks (list[PostV1TasksApplyBodyTasksItem]): every task the tenant keeps by key: the body of POST /v1/tasks,
            each with its `key`
        prune (bool | Unset): also delete the tenant’s keyed tasks this list does not name Default: False.
        dry_run (bool | Unset): answer the plan and change nothing Default: False.
    """

    tasks: list[PostV1TasksApplyBodyTasksItem]
    prune: bool | Unset = False
    dry_run: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        tasks = []
        for tasks_item_data in self.tasks:
            tasks_item = tasks_item_data.to_dict()
            tasks.append(tasks_item)

        prune = self.prune

        dry_run = self.dry_run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tasks": tasks,
            }
        )
        if prune is not UNSET:
            field_dict["prune"] = prune
        if dry_run is not UNSET:
            field_dict["dryRun"] = dry_run

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_tasks_apply_body_tasks_item import PostV1TasksApplyBodyTasksItem  # noqa: PLC0415

        d = dict(src_dict)
        tasks = []
        _tasks = d.pop("tasks")
        for tasks_item_data in _tasks:
            tasks_item = PostV1TasksApplyBodyTasksItem.from_dict(tasks_item_data)

            tasks.append(tasks_item)

        prune = d.pop("prune", UNSET)

        dry_run = d.pop("dryRun", UNSET)

        post_v1_tasks_apply_body = cls(
            tasks=tasks,
            prune=prune,
            dry_run=dry_run,
        )

        return post_v1_tasks_apply_body
