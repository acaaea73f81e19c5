from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1SchedulesParseBody")


@_attrs_define
class PostV1SchedulesParseBody:
    """
    Attributes:
        text (str): the schedule in words: "every weekday at 9am", "on the last day of every month at 23:00", "in 3
            hours"
        timezone (str | Unset): the zone of a phrase that names none (UTC by default)
    """

    text: str
    timezone: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "text": text,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        timezone = d.pop("timezone", UNSET)

        post_v1_schedules_parse_body = cls(
            text=text,
            timezone=timezone,
        )

        return post_v1_schedules_parse_body
