from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.calendar import Calendar
    from ..models.cron_schedule_view_dst import CronScheduleViewDst


T = TypeVar("T", bound="CronScheduleView")


@_attrs_define
class CronScheduleView:
    """
    Attributes:
        type_ (Literal['cron']):
        expression (str):
        timezone (str):
        dst (CronScheduleViewDst):
        description (str): the schedule in one sentence, with its zone
        calendar (Calendar | Unset): days the schedule does not fire on (docs/scheduling.md#calendars)
        text (str | Unset): the words the schedule was given in, when it was
    """

    type_: Literal["cron"]
    expression: str
    timezone: str
    dst: CronScheduleViewDst
    description: str
    calendar: Calendar | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        expression = self.expression

        timezone = self.timezone

        dst = self.dst.to_dict()

        description = self.description

        calendar: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calendar, Unset):
            calendar = self.calendar.to_dict()

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "expression": expression,
                "timezone": timezone,
                "dst": dst,
                "description": description,
            }
        )
        if calendar is not UNSET:
            field_dict["calendar"] = calendar
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.calendar import Calendar  # noqa: PLC0415
        from ..models.cron_schedule_view_dst import CronScheduleViewDst  # noqa: PLC0415

        d = dict(src_dict)
        type_ = cast(Literal["cron"], d.pop("type"))
        if type_ != "cron":
            raise ValueError(f"type must match const 'cron', got '{type_}'")

        expression = d.pop("expression")

        timezone = d.pop("timezone")

        dst = CronScheduleViewDst.from_dict(d.pop("dst"))

        description = d.pop("description")

        _calendar = d.pop("calendar", UNSET)
        calendar: Calendar | Unset
        if isinstance(_calendar, Unset):
            calendar = UNSET
        else:
            calendar = Calendar.from_dict(_calendar)

        text = d.pop("text", UNSET)

        cron_schedule_view = cls(
            type_=type_,
            expression=expression,
            timezone=timezone,
            dst=dst,
            description=description,
            calendar=calendar,
            text=text,
        )

        return cron_schedule_view
