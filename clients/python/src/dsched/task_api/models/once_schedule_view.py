from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="OnceScheduleView")


@_attrs_define
class OnceScheduleView:
    """
    Attributes:
        type_ (Literal['once']):
        at (str):
        description (str): the schedule in one sentence, with its zone
        timezone (str | Unset):
        text (str | Unset): the words the schedule was given in, when it was
    """

    type_: Literal["once"]
    at: str
    description: str
    timezone: str | Unset = UNSET
    text: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        at = self.at

        description = self.description

        timezone = self.timezone

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "at": at,
                "description": description,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if text is not UNSET:
            field_dict["text"] = text

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["once"], d.pop("type"))
        if type_ != "once":
            raise ValueError(f"type must match const 'once', got '{type_}'")

        at = d.pop("at")

        description = d.pop("description")

        timezone = d.pop("timezone", UNSET)

        text = d.pop("text", UNSET)

        once_schedule_view = cls(
            type_=type_,
            at=at,
            description=description,
            timezone=timezone,
            text=text,
        )

        return once_schedule_view
