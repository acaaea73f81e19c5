from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.cron_schedule_view_dst_repeated import CronScheduleViewDstRepeated
from ..models.cron_schedule_view_dst_skipped import CronScheduleViewDstSkipped

T = TypeVar("T", bound="CronScheduleViewDst")


@_attrs_define
class CronScheduleViewDst:
    """
    Attributes:
        repeated (CronScheduleViewDstRepeated):  Default: CronScheduleViewDstRepeated.FIRST.
        skipped (CronScheduleViewDstSkipped):  Default: CronScheduleViewDstSkipped.SHIFT.
    """

    repeated: CronScheduleViewDstRepeated = CronScheduleViewDstRepeated.FIRST
    skipped: CronScheduleViewDstSkipped = CronScheduleViewDstSkipped.SHIFT

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
        repeated = CronScheduleViewDstRepeated(d.pop("repeated"))

        skipped = CronScheduleViewDstSkipped(d.pop("skipped"))

        cron_schedule_view_dst = cls(
            repeated=repeated,
            skipped=skipped,
        )

        return cron_schedule_view_dst
