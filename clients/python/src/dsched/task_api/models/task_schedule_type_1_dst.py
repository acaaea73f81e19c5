from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.task_schedule_type_1_dst_repeated import TaskScheduleType1DstRepeated
from ..models.task_schedule_type_1_dst_skipped import TaskScheduleType1DstSkipped

T = TypeVar("T", bound="TaskScheduleType1Dst")


@_attrs_define
class TaskScheduleType1Dst:
    """
    Attributes:
        repeated (TaskScheduleType1DstRepeated):  Default: TaskScheduleType1DstRepeated.FIRST.
        skipped (TaskScheduleType1DstSkipped):  Default: TaskScheduleType1DstSkipped.SHIFT.
    """

    repeated: TaskScheduleType1DstRepeated = TaskScheduleType1DstRepeated.FIRST
    skipped: TaskScheduleType1DstSkipped = TaskScheduleType1DstSkipped.SHIFT

    def to_dict(self) -> dict[str, Any]:
        repeated = self.repeated.value

        skipped = self.skipped.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "repeated": repeated,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        repeated = TaskScheduleType1DstRepeated(d.pop("repeated"))

        skipped = TaskScheduleType1DstSkipped(d.pop("skipped"))

        task_schedule_type_1_dst = cls(
            repeated=repeated,
            skipped=skipped,
        )

        return task_schedule_type_1_dst
