from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.occurrence_calendar import OccurrenceCalendar
from ..models.occurrence_dst import OccurrenceDst
from ..types import UNSET, Unset

T = TypeVar("T", bound="Occurrence")


@_attrs_define
class Occurrence:
    """
    Attributes:
        at (str): the instant, RFC 3339 UTC (for a skipped entry: the instant it would have had)
        local_time (str): the wall clock in the schedule’s zone, e.g. 2026-03-29T03:00:00
        utc_offset (str): the zone’s UTC offset at that instant, e.g. +02:00
        fires (bool): false for a skipped entry
        dst (OccurrenceDst | Unset): set when daylight saving moved, repeated or skipped it
        calendar (OccurrenceCalendar | Unset): set by a calendar: `excluded` (an occurrence on an excluded day, fires:
            false) or `moved` (fires here instead)
        moved_to (str | Unset): an excluded occurrence that moved: where it fires
        moved_from (list[str] | Unset): the excluded occurrences that fire at this time instead
        note (str | Unset):
    """

    at: str
    local_time: str
    utc_offset: str
    fires: bool
    dst: OccurrenceDst | Unset = UNSET
    calendar: OccurrenceCalendar | Unset = UNSET
    moved_to: str | Unset = UNSET
    moved_from: list[str] | Unset = UNSET
    note: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        local_time = self.local_time

        utc_offset = self.utc_offset

        fires = self.fires

        dst: str | Unset = UNSET
        if not isinstance(self.dst, Unset):
            dst = self.dst.value

        calendar: str | Unset = UNSET
        if not isinstance(self.calendar, Unset):
            calendar = self.calendar.value

        moved_to = self.moved_to

        moved_from: list[str] | Unset = UNSET
        if not isinstance(self.moved_from, Unset):
            moved_from = self.moved_from

        note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "at": at,
                "localTime": local_time,
                "utcOffset": utc_offset,
                "fires": fires,
            }
        )
        if dst is not UNSET:
            field_dict["dst"] = dst
        if calendar is not UNSET:
            field_dict["calendar"] = calendar
        if moved_to is not UNSET:
            field_dict["movedTo"] = moved_to
        if moved_from is not UNSET:
            field_dict["movedFrom"] = moved_from
        if note is not UNSET:
            field_dict["note"] = note

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = d.pop("at")

        local_time = d.pop("localTime")

        utc_offset = d.pop("utcOffset")

        fires = d.pop("fires")

        _dst = d.pop("dst", UNSET)
        dst: OccurrenceDst | Unset
        if isinstance(_dst, Unset):
            dst = UNSET
        else:
            dst = OccurrenceDst(_dst)

        _calendar = d.pop("calendar", UNSET)
        calendar: OccurrenceCalendar | Unset
        if isinstance(_calendar, Unset):
            calendar = UNSET
        else:
            calendar = OccurrenceCalendar(_calendar)

        moved_to = d.pop("movedTo", UNSET)

        moved_from = cast(list[str], d.pop("movedFrom", UNSET))

        note = d.pop("note", UNSET)

        occurrence = cls(
            at=at,
            local_time=local_time,
            utc_offset=utc_offset,
            fires=fires,
            dst=dst,
            calendar=calendar,
            moved_to=moved_to,
            moved_from=moved_from,
            note=note,
        )

        return occurrence
