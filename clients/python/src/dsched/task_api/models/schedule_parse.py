from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.cron_schedule_view import CronScheduleView
    from ..models.interval_schedule_view import IntervalScheduleView
    from ..models.once_schedule_view import OnceScheduleView


T = TypeVar("T", bound="ScheduleParse")


@_attrs_define
class ScheduleParse:
    """
    Attributes:
        schedule (CronScheduleView | IntervalScheduleView | OnceScheduleView):
        description (str): the schedule in one sentence
        next_ (list[str]): the next 5 fire times, RFC 3339 UTC
    """

    schedule: CronScheduleView | IntervalScheduleView | OnceScheduleView
    description: str
    next_: list[str]

    def to_dict(self) -> dict[str, Any]:
        from ..models.cron_schedule_view import CronScheduleView  # noqa: PLC0415
        from ..models.once_schedule_view import OnceScheduleView  # noqa: PLC0415

        schedule: dict[str, Any]
        if isinstance(self.schedule, OnceScheduleView):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, CronScheduleView):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule.to_dict()

        description = self.description

        next_ = self.next_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "schedule": schedule,
                "description": description,
                "next": next_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cron_schedule_view import CronScheduleView  # noqa: PLC0415
        from ..models.interval_schedule_view import IntervalScheduleView  # noqa: PLC0415
        from ..models.once_schedule_view import OnceScheduleView  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_schedule(data: object) -> CronScheduleView | IntervalScheduleView | OnceScheduleView:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_schedule_view_type_0 = OnceScheduleView.from_dict(data)

                return componentsschemas_schedule_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_schedule_view_type_1 = CronScheduleView.from_dict(data)

                return componentsschemas_schedule_view_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_schedule_view_type_2 = IntervalScheduleView.from_dict(data)

            return componentsschemas_schedule_view_type_2

        schedule = _parse_schedule(d.pop("schedule"))

        description = d.pop("description")

        next_ = cast(list[str], d.pop("next"))

        schedule_parse = cls(
            schedule=schedule,
            description=description,
            next_=next_,
        )

        return schedule_parse
