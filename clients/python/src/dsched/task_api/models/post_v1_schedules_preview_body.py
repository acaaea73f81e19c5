from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_schedules_preview_body_schedule_type_0 import PostV1SchedulesPreviewBodyScheduleType0
    from ..models.post_v1_schedules_preview_body_schedule_type_1 import PostV1SchedulesPreviewBodyScheduleType1
    from ..models.post_v1_schedules_preview_body_schedule_type_2 import PostV1SchedulesPreviewBodyScheduleType2
    from ..models.post_v1_schedules_preview_body_schedule_type_3 import PostV1SchedulesPreviewBodyScheduleType3


T = TypeVar("T", bound="PostV1SchedulesPreviewBody")


@_attrs_define
class PostV1SchedulesPreviewBody:
    """
    Attributes:
        schedule (PostV1SchedulesPreviewBodyScheduleType0 | PostV1SchedulesPreviewBodyScheduleType1 |
            PostV1SchedulesPreviewBodyScheduleType2 | PostV1SchedulesPreviewBodyScheduleType3):
        count (int | Unset): how many fire times, at most 1000 Default: 10.
        from_ (datetime.datetime | Unset): the first fire time may be this instant or later (default: now)
    """

    schedule: (
        PostV1SchedulesPreviewBodyScheduleType0
        | PostV1SchedulesPreviewBodyScheduleType1
        | PostV1SchedulesPreviewBodyScheduleType2
        | PostV1SchedulesPreviewBodyScheduleType3
    )
    count: int | Unset = 10
    from_: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.post_v1_schedules_preview_body_schedule_type_0 import PostV1SchedulesPreviewBodyScheduleType0  # noqa: PLC0415
        from ..models.post_v1_schedules_preview_body_schedule_type_1 import PostV1SchedulesPreviewBodyScheduleType1  # noqa: PLC0415
        from ..models.post_v1_schedules_preview_body_schedule_type_2 import PostV1SchedulesPreviewBodyScheduleType2  # noqa: PLC0415

        schedule: dict[str, Any]
        if isinstance(self.schedule, PostV1SchedulesPreviewBodyScheduleType0):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, PostV1SchedulesPreviewBodyScheduleType1):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, PostV1SchedulesPreviewBodyScheduleType2):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule.to_dict()

        count = self.count

        from_: str | Unset = UNSET
        if not isinstance(self.from_, Unset):
            from_ = self.from_.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schedule": schedule,
            }
        )
        if count is not UNSET:
            field_dict["count"] = count
        if from_ is not UNSET:
            field_dict["from"] = from_

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_schedules_preview_body_schedule_type_0 import PostV1SchedulesPreviewBodyScheduleType0  # noqa: PLC0415
        from ..models.post_v1_schedules_preview_body_schedule_type_1 import PostV1SchedulesPreviewBodyScheduleType1  # noqa: PLC0415
        from ..models.post_v1_schedules_preview_body_schedule_type_2 import PostV1SchedulesPreviewBodyScheduleType2  # noqa: PLC0415
        from ..models.post_v1_schedules_preview_body_schedule_type_3 import PostV1SchedulesPreviewBodyScheduleType3  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_schedule(
            data: object,
        ) -> (
            PostV1SchedulesPreviewBodyScheduleType0
            | PostV1SchedulesPreviewBodyScheduleType1
            | PostV1SchedulesPreviewBodyScheduleType2
            | PostV1SchedulesPreviewBodyScheduleType3
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = PostV1SchedulesPreviewBodyScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_1 = PostV1SchedulesPreviewBodyScheduleType1.from_dict(data)

                return schedule_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_2 = PostV1SchedulesPreviewBodyScheduleType2.from_dict(data)

                return schedule_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            schedule_type_3 = PostV1SchedulesPreviewBodyScheduleType3.from_dict(data)

            return schedule_type_3

        schedule = _parse_schedule(d.pop("schedule"))

        count = d.pop("count", UNSET)

        _from_ = d.pop("from", UNSET)
        from_: datetime.datetime | Unset
        if isinstance(_from_, Unset):
            from_ = UNSET
        else:
            from_ = datetime.datetime.fromisoformat(_from_)

        post_v1_schedules_preview_body = cls(
            schedule=schedule,
            count=count,
            from_=from_,
        )

        return post_v1_schedules_preview_body
