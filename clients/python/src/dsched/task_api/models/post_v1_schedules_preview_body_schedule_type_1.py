from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.calendar import Calendar
    from ..models.post_v1_schedules_preview_body_schedule_type_1_dst import PostV1SchedulesPreviewBodyScheduleType1Dst


T = TypeVar("T", bound="PostV1SchedulesPreviewBodyScheduleType1")


@_attrs_define
class PostV1SchedulesPreviewBodyScheduleType1:
    """
    Attributes:
        type_ (Literal['cron']):
        expression (str):
        timezone (str | Unset):  Default: 'UTC'.
        dst (PostV1SchedulesPreviewBodyScheduleType1Dst | Unset):
        calendar (Calendar | Unset): days the schedule does not fire on (docs/scheduling.md#calendars)
        description (str | Unset): read-only (the sentence responses give): ignored
        text (str | Unset): read-only (the words the schedule was given in): to give words, use type "text"
    """

    type_: Literal["cron"]
    expression: str
    timezone: str | Unset = "UTC"
    dst: PostV1SchedulesPreviewBodyScheduleType1Dst | Unset = UNSET
    calendar: Calendar | Unset = UNSET
    description: str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        expression = self.expression

        timezone = self.timezone

        dst: dict[str, Any] | Unset = UNSET
        if not isinstance(self.dst, Unset):
            dst = self.dst.to_dict()

        calendar: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calendar, Unset):
            calendar = self.calendar.to_dict()

        description = self.description

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "expression": expression,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if dst is not UNSET:
            field_dict["dst"] = dst
        if calendar is not UNSET:
            field_dict["calendar"] = calendar
        if description is not UNSET:
            field_dict["description"] = description
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.calendar import Calendar  # noqa: PLC0415
        from ..models.post_v1_schedules_preview_body_schedule_type_1_dst import (
            PostV1SchedulesPreviewBodyScheduleType1Dst,  # noqa: PLC0415
        )

        d = dict(src_dict)
        type_ = cast(Literal["cron"], d.pop("type"))
        if type_ != "cron":
            raise ValueError(f"type must match const 'cron', got '{type_}'")

        expression = d.pop("expression")

        timezone = d.pop("timezone", UNSET)

        _dst = d.pop("dst", UNSET)
        dst: PostV1SchedulesPreviewBodyScheduleType1Dst | Unset
        if isinstance(_dst, Unset):
            dst = UNSET
        else:
            dst = PostV1SchedulesPreviewBodyScheduleType1Dst.from_dict(_dst)

        _calendar = d.pop("calendar", UNSET)
        calendar: Calendar | Unset
        if isinstance(_calendar, Unset):
            calendar = UNSET
        else:
            calendar = Calendar.from_dict(_calendar)

        description = d.pop("description", UNSET)

        text = d.pop("text", UNSET)

        post_v1_schedules_preview_body_schedule_type_1 = cls(
            type_=type_,
            expression=expression,
            timezone=timezone,
            dst=dst,
            calendar=calendar,
            description=description,
            text=text,
        )

        return post_v1_schedules_preview_body_schedule_type_1
