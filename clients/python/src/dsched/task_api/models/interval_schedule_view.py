from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.calendar import Calendar


T = TypeVar("T", bound="IntervalScheduleView")


@_attrs_define
class IntervalScheduleView:
    """
    Attributes:
        type_ (Literal['interval']):
        every (str):
        description (str): the schedule in one sentence, with its zone
        offset (str | Unset):
        start_at (str | Unset):
        calendar (Calendar | Unset): days the schedule does not fire on (docs/scheduling.md#calendars)
        text (str | Unset): the words the schedule was given in, when it was
    """

    type_: Literal["interval"]
    every: str
    description: str
    offset: str | Unset = UNSET
    start_at: str | Unset = UNSET
    calendar: Calendar | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        every = self.every

        description = self.description

        offset = self.offset

        start_at = self.start_at

        calendar: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calendar, Unset):
            calendar = self.calendar.to_dict()

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "every": every,
                "description": description,
            }
        )
        if offset is not UNSET:
            field_dict["offset"] = offset
        if start_at is not UNSET:
            field_dict["startAt"] = start_at
        if calendar is not UNSET:
            field_dict["calendar"] = calendar
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

        description = d.pop("description")

        offset = d.pop("offset", UNSET)

        start_at = d.pop("startAt", UNSET)

        _calendar = d.pop("calendar", UNSET)
        calendar: Calendar | Unset
        if isinstance(_calendar, Unset):
            calendar = UNSET
        else:
            calendar = Calendar.from_dict(_calendar)

        text = d.pop("text", UNSET)

        interval_schedule_view = cls(
            type_=type_,
            every=every,
            description=description,
            offset=offset,
            start_at=start_at,
            calendar=calendar,
            text=text,
        )

        return interval_schedule_view
