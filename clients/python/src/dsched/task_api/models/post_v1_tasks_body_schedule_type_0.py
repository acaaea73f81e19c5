from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1TasksBodyScheduleType0")


@_attrs_define
class PostV1TasksBodyScheduleType0:
    """
    Attributes:
        type_ (Literal['once']):
        at (datetime.datetime): RFC 3339 time
        timezone (str | Unset): the zone its description shows the time in
        description (str | Unset): read-only (the sentence responses give): ignored
        text (str | Unset): read-only (the words the schedule was given in): to give words, use type "text"
    """

    type_: Literal["once"]
    at: datetime.datetime
    timezone: str | Unset = UNSET
    description: str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        at = self.at.isoformat()

        timezone = self.timezone

        description = self.description

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "at": at,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if description is not UNSET:
            field_dict["description"] = description
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["once"], d.pop("type"))
        if type_ != "once":
            raise ValueError(f"type must match const 'once', got '{type_}'")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        timezone = d.pop("timezone", UNSET)

        description = d.pop("description", UNSET)

        text = d.pop("text", UNSET)

        post_v1_tasks_body_schedule_type_0 = cls(
            type_=type_,
            at=at,
            timezone=timezone,
            description=description,
            text=text,
        )

        return post_v1_tasks_body_schedule_type_0
