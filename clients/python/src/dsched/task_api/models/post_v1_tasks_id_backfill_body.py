from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1TasksIdBackfillBody")


@_attrs_define
class PostV1TasksIdBackfillBody:
    """
    Attributes:
        from_ (datetime.datetime): RFC 3339 time
        to (datetime.datetime): RFC 3339 time
    """

    from_: datetime.datetime
    to: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_.isoformat()

        to = self.to.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        from_ = datetime.datetime.fromisoformat(d.pop("from"))

        to = datetime.datetime.fromisoformat(d.pop("to"))

        post_v1_tasks_id_backfill_body = cls(
            from_=from_,
            to=to,
        )

        return post_v1_tasks_id_backfill_body
