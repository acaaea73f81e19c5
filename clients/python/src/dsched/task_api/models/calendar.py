from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.calendar_on_excluded import CalendarOnExcluded
from ..types import UNSET, Unset

T = TypeVar("T", bound="Calendar")


@_attrs_define
class Calendar:
    """days the schedule does not fire on (docs/scheduling.md#calendars)

    Attributes:
        on_excluded (CalendarOnExcluded): an occurrence on an excluded day: skipped, or moved to the same wall time of
            the next or previous business day
        holidays (str | Unset): public holidays of a country (DE) or country-region (DE-BE), as the date-holidays data
            knows them
        weekends (bool | Unset): Saturdays and Sundays are excluded
        dates (list[str] | Unset): explicit dates excluded, YYYY-MM-DD in the schedule’s zone
        timezone (str | Unset): interval schedules only: the zone whose days are judged (UTC by default); a cron
            schedule uses its own
    """

    on_excluded: CalendarOnExcluded
    holidays: str | Unset = UNSET
    weekends: bool | Unset = UNSET
    dates: list[str] | Unset = UNSET
    timezone: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        on_excluded = self.on_excluded.value

        holidays = self.holidays

        weekends = self.weekends

        dates: list[str] | Unset = UNSET
        if not isinstance(self.dates, Unset):
            dates = self.dates

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "onExcluded": on_excluded,
            }
        )
        if holidays is not UNSET:
            field_dict["holidays"] = holidays
        if weekends is not UNSET:
            field_dict["weekends"] = weekends
        if dates is not UNSET:
            field_dict["dates"] = dates
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        on_excluded = CalendarOnExcluded(d.pop("onExcluded"))

        holidays = d.pop("holidays", UNSET)

        weekends = d.pop("weekends", UNSET)

        dates = cast(list[str], d.pop("dates", UNSET))

        timezone = d.pop("timezone", UNSET)

        calendar = cls(
            on_excluded=on_excluded,
            holidays=holidays,
            weekends=weekends,
            dates=dates,
            timezone=timezone,
        )

        return calendar
