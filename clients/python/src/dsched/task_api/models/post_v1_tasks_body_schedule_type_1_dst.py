from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.post_v1_tasks_body_schedule_type_1_dst_repeated import PostV1TasksBodyScheduleType1DstRepeated
from ..models.post_v1_tasks_body_schedule_type_1_dst_skipped import PostV1TasksBodyScheduleType1DstSkipped
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1TasksBodyScheduleType1Dst")


@_attrs_define
class PostV1TasksBodyScheduleType1Dst:
    """
    Attributes:
        repeated (PostV1TasksBodyScheduleType1DstRepeated | Unset):  Default:
            PostV1TasksBodyScheduleType1DstRepeated.FIRST.
        skipped (PostV1TasksBodyScheduleType1DstSkipped | Unset):  Default:
            PostV1TasksBodyScheduleType1DstSkipped.SHIFT.
    """

    repeated: PostV1TasksBodyScheduleType1DstRepeated | Unset = PostV1TasksBodyScheduleType1DstRepeated.FIRST
    skipped: PostV1TasksBodyScheduleType1DstSkipped | Unset = PostV1TasksBodyScheduleType1DstSkipped.SHIFT

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
        repeated: PostV1TasksBodyScheduleType1DstRepeated | Unset
        if isinstance(_repeated, Unset):
            repeated = UNSET
        else:
            repeated = PostV1TasksBodyScheduleType1DstRepeated(_repeated)

        _skipped = d.pop("skipped", UNSET)
        skipped: PostV1TasksBodyScheduleType1DstSkipped | Unset
        if isinstance(_skipped, Unset):
            skipped = UNSET
        else:
            skipped = PostV1TasksBodyScheduleType1DstSkipped(_skipped)

        post_v1_tasks_body_schedule_type_1_dst = cls(
            repeated=repeated,
            skipped=skipped,
        )

        return post_v1_tasks_body_schedule_type_1_dst
