from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1TasksApplyBodyTasksItemCallbacks")


@_attrs_define
class PostV1TasksApplyBodyTasksItemCallbacks:
    """
    Attributes:
        on_success (str | Unset): POSTed a signed job.succeeded event after a job succeeds
        on_dead (str | Unset): POSTed a signed job.dead event after a job is dead-lettered
    """

    on_success: str | Unset = UNSET
    on_dead: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        on_success = self.on_success

        on_dead = self.on_dead

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if on_success is not UNSET:
            field_dict["onSuccess"] = on_success
        if on_dead is not UNSET:
            field_dict["onDead"] = on_dead

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        on_success = d.pop("onSuccess", UNSET)

        on_dead = d.pop("onDead", UNSET)

        post_v1_tasks_apply_body_tasks_item_callbacks = cls(
            on_success=on_success,
            on_dead=on_dead,
        )

        return post_v1_tasks_apply_body_tasks_item_callbacks
