from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.schedule_view_type_0 import ScheduleViewType0
    from ..models.schedule_view_type_1 import ScheduleViewType1
    from ..models.schedule_view_type_2 import ScheduleViewType2


T = TypeVar("T", bound="ScheduleParse")


@_attrs_define
class ScheduleParse:
    """
    Attributes:
        schedule (ScheduleViewType0 | ScheduleViewType1 | ScheduleViewType2):
        description (str): the schedule in one sentence
        next_ (list[str]): the next 5 fire times, RFC 3339 UTC
    """

    schedule: ScheduleViewType0 | ScheduleViewType1 | ScheduleViewType2
    description: str
    next_: list[str]

    def to_dict(self) -> dict[str, Any]:
        from ..models.schedule_view_type_0 import ScheduleViewType0  # noqa: PLC0415
        from ..models.schedule_view_type_1 import ScheduleViewType1  # noqa: PLC0415

        schedule: dict[str, Any]
        if isinstance(self.schedule, ScheduleViewType0):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, ScheduleViewType1):
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
        from ..models.schedule_view_type_0 import ScheduleViewType0  # noqa: PLC0415
        from ..models.schedule_view_type_1 import ScheduleViewType1  # noqa: PLC0415
        from ..models.schedule_view_type_2 import ScheduleViewType2  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_schedule(data: object) -> ScheduleViewType0 | ScheduleViewType1 | ScheduleViewType2:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_schedule_view_type_0 = ScheduleViewType0.from_dict(data)

                return componentsschemas_schedule_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_schedule_view_type_1 = ScheduleViewType1.from_dict(data)

                return componentsschemas_schedule_view_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_schedule_view_type_2 = ScheduleViewType2.from_dict(data)

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
