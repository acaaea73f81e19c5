from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1SchedulesPreviewBodyScheduleType0")


@_attrs_define
class PostV1SchedulesPreviewBodyScheduleType0:
    """
    Attributes:
        type_ (Literal['once']):
        at (datetime.datetime): RFC 3339 time
    """

    type_: Literal["once"]
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["once"], d.pop("type"))
        if type_ != "once":
            raise ValueError(f"type must match const 'once', got '{type_}'")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        post_v1_schedules_preview_body_schedule_type_0 = cls(
            type_=type_,
            at=at,
        )

        return post_v1_schedules_preview_body_schedule_type_0
