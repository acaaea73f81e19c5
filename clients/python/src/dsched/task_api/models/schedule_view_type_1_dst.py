from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.schedule_view_type_1_dst_repeated import ScheduleViewType1DstRepeated
from ..models.schedule_view_type_1_dst_skipped import ScheduleViewType1DstSkipped

T = TypeVar("T", bound="ScheduleViewType1Dst")


@_attrs_define
class ScheduleViewType1Dst:
    """
    Attributes:
        repeated (ScheduleViewType1DstRepeated):  Default: ScheduleViewType1DstRepeated.FIRST.
        skipped (ScheduleViewType1DstSkipped):  Default: ScheduleViewType1DstSkipped.SHIFT.
    """

    repeated: ScheduleViewType1DstRepeated = ScheduleViewType1DstRepeated.FIRST
    skipped: ScheduleViewType1DstSkipped = ScheduleViewType1DstSkipped.SHIFT

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
        repeated = ScheduleViewType1DstRepeated(d.pop("repeated"))

        skipped = ScheduleViewType1DstSkipped(d.pop("skipped"))

        schedule_view_type_1_dst = cls(
            repeated=repeated,
            skipped=skipped,
        )

        return schedule_view_type_1_dst
