from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1TasksIdBackfillResponse202")


@_attrs_define
class PostV1TasksIdBackfillResponse202:
    """
    Attributes:
        count (int):
        created (int):
    """

    count: int
    created: int

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        created = self.created

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "created": created,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        created = d.pop("created")

        post_v1_tasks_id_backfill_response_202 = cls(
            count=count,
            created=created,
        )

        return post_v1_tasks_id_backfill_response_202
