from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.calendar import Calendar


T = TypeVar("T", bound="PostV1SchedulesPreviewBodyScheduleType3")


@_attrs_define
class PostV1SchedulesPreviewBodyScheduleType3:
    """
    Attributes:
        type_ (Literal['text']):
        text (str): the schedule in words: "every weekday at 9am", "on the last day of every month at 23:00", "in 3
            hours"
        timezone (str | Unset): the zone of a phrase that names none (UTC by default)
        calendar (Calendar | Unset): days the schedule does not fire on (docs/scheduling.md#calendars)
    """

    type_: Literal["text"]
    text: str
    timezone: str | Unset = UNSET
    calendar: Calendar | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        text = self.text

        timezone = self.timezone

        calendar: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calendar, Unset):
            calendar = self.calendar.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "text": text,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if calendar is not UNSET:
            field_dict["calendar"] = calendar

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.calendar import Calendar  # noqa: PLC0415

        d = dict(src_dict)
        type_ = cast(Literal["text"], d.pop("type"))
        if type_ != "text":
            raise ValueError(f"type must match const 'text', got '{type_}'")

        text = d.pop("text")

        timezone = d.pop("timezone", UNSET)

        _calendar = d.pop("calendar", UNSET)
        calendar: Calendar | Unset
        if isinstance(_calendar, Unset):
            calendar = UNSET
        else:
            calendar = Calendar.from_dict(_calendar)

        post_v1_schedules_preview_body_schedule_type_3 = cls(
            type_=type_,
            text=text,
            timezone=timezone,
            calendar=calendar,
        )

        return post_v1_schedules_preview_body_schedule_type_3
