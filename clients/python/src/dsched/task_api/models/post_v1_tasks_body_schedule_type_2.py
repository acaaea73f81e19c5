from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.calendar import Calendar


T = TypeVar("T", bound="PostV1TasksBodyScheduleType2")


@_attrs_define
class PostV1TasksBodyScheduleType2:
    """
    Attributes:
        type_ (Literal['interval']):
        every (str): elapsed time between fires: days, hours, minutes, seconds ("90m", "1h30m", "7d"), 1s to 366d
        offset (str | Unset): phase: fires at startAt (or the Unix epoch) + offset + k × every; shorter than every
        start_at (datetime.datetime | Unset): the first fire time (before the offset); the Unix epoch when absent
        calendar (Calendar | Unset): days the schedule does not fire on (docs/scheduling.md#calendars)
        description (str | Unset): read-only (the sentence responses give): ignored
        text (str | Unset): read-only (the words the schedule was given in): to give words, use type "text"
    """

    type_: Literal["interval"]
    every: str
    offset: str | Unset = UNSET
    start_at: datetime.datetime | Unset = UNSET
    calendar: Calendar | Unset = UNSET
    description: str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        every = self.every

        offset = self.offset

        start_at: str | Unset = UNSET
        if not isinstance(self.start_at, Unset):
            start_at = self.start_at.isoformat()

        calendar: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calendar, Unset):
            calendar = self.calendar.to_dict()

        description = self.description

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "every": every,
            }
        )
        if offset is not UNSET:
            field_dict["offset"] = offset
        if start_at is not UNSET:
            field_dict["startAt"] = start_at
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

        d = dict(src_dict)
        type_ = cast(Literal["interval"], d.pop("type"))
        if type_ != "interval":
            raise ValueError(f"type must match const 'interval', got '{type_}'")

        every = d.pop("every")

        offset = d.pop("offset", UNSET)

        _start_at = d.pop("startAt", UNSET)
        start_at: datetime.datetime | Unset
        if isinstance(_start_at, Unset):
            start_at = UNSET
        else:
            start_at = datetime.datetime.fromisoformat(_start_at)

        _calendar = d.pop("calendar", UNSET)
        calendar: Calendar | Unset
        if isinstance(_calendar, Unset):
            calendar = UNSET
        else:
            calendar = Calendar.from_dict(_calendar)

        description = d.pop("description", UNSET)

        text = d.pop("text", UNSET)

        post_v1_tasks_body_schedule_type_2 = cls(
            type_=type_,
            every=every,
            offset=offset,
            start_at=start_at,
            calendar=calendar,
            description=description,
            text=text,
        )

        return post_v1_tasks_body_schedule_type_2
