from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.task_schedule_type_1_dst import TaskScheduleType1Dst


T = TypeVar("T", bound="TaskScheduleType1")


@_attrs_define
class TaskScheduleType1:
    """
    Attributes:
        type_ (Literal['cron']):
        expression (str):
        timezone (str):  Default: 'UTC'.
        dst (TaskScheduleType1Dst):
    """

    type_: Literal["cron"]
    expression: str
    dst: TaskScheduleType1Dst
    timezone: str = "UTC"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        expression = self.expression

        timezone = self.timezone

        dst = self.dst.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "expression": expression,
                "timezone": timezone,
                "dst": dst,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.task_schedule_type_1_dst import TaskScheduleType1Dst  # noqa: PLC0415

        d = dict(src_dict)
        type_ = cast(Literal["cron"], d.pop("type"))
        if type_ != "cron":
            raise ValueError(f"type must match const 'cron', got '{type_}'")

        expression = d.pop("expression")

        timezone = d.pop("timezone")

        dst = TaskScheduleType1Dst.from_dict(d.pop("dst"))

        task_schedule_type_1 = cls(
            type_=type_,
            expression=expression,
            timezone=timezone,
            dst=dst,
        )

        return task_schedule_type_1
