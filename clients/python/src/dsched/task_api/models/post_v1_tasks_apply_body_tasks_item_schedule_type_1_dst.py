from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst_repeated import (
    PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated,
)
from ..models.post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst_skipped import (
    PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1TasksApplyBodyTasksItemScheduleType1Dst")


@_attrs_define
class PostV1TasksApplyBodyTasksItemScheduleType1Dst:
    """
    Attributes:
        repeated (PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated | Unset):  Default:
            PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated.FIRST.
        skipped (PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped | Unset):  Default:
            PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped.SHIFT.
    """

    repeated: PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated | Unset = (
        PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated.FIRST
    )
    skipped: PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped | Unset = (
        PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped.SHIFT
    )

    def to_dict(self) -> dict[str, Any]:
        repeated: str | Unset = UNSET
        if not isinstance(self.repeated, Unset):
            repeated = self.repeated.value

        skipped: str | Unset = UNSET
        if not isinstance(self.skipped, Unset):
            skipped = self.skipped.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if repeated is not UNSET:
            field_dict["repeated"] = repeated
        if skipped is not UNSET:
            field_dict["skipped"] = skipped

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _repeated = d.pop("repeated", UNSET)
        repeated: PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated | Unset
        if isinstance(_repeated, Unset):
            repeated = UNSET
        else:
            repeated = PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated(_repeated)

        _skipped = d.pop("skipped", UNSET)
        skipped: PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped | Unset
        if isinstance(_skipped, Unset):
            skipped = UNSET
        else:
            skipped = PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped(_skipped)

        post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst = cls(
            repeated=repeated,
            skipped=skipped,
        )

        return post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst
