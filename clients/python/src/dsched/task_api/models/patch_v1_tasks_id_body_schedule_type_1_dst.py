from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_schedule_type_1_dst_repeated import PatchV1TasksIdBodyScheduleType1DstRepeated
from ..models.patch_v1_tasks_id_body_schedule_type_1_dst_skipped import PatchV1TasksIdBodyScheduleType1DstSkipped
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchV1TasksIdBodyScheduleType1Dst")


@_attrs_define
class PatchV1TasksIdBodyScheduleType1Dst:
    """
    Attributes:
        repeated (PatchV1TasksIdBodyScheduleType1DstRepeated | Unset):  Default:
            PatchV1TasksIdBodyScheduleType1DstRepeated.FIRST.
        skipped (PatchV1TasksIdBodyScheduleType1DstSkipped | Unset):  Default:
            PatchV1TasksIdBodyScheduleType1DstSkipped.SHIFT.
    """

    repeated: PatchV1TasksIdBodyScheduleType1DstRepeated | Unset = PatchV1TasksIdBodyScheduleType1DstRepeated.FIRST
    skipped: PatchV1TasksIdBodyScheduleType1DstSkipped | Unset = PatchV1TasksIdBodyScheduleType1DstSkipped.SHIFT

    def to_dict(self) -> dict[str, Any]:
        repeated: str | Unset = UNSET
        if not isinstance(self.repeated, Unset):
            repeated = self.repeated.value

        skipped: str | Unset = UNSET
        if not isinstance(self.skipped, Unset):
            skipped = self.skipped.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if repeated is not UNSET:
            field_dict["repeated"] = repeated
        if skipped is not UNSET:
            field_dict["skipped"] = skipped

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _repeated = d.pop("repeated", UNSET)
        repeated: PatchV1TasksIdBodyScheduleType1DstRepeated | Unset
        if isinstance(_repeated, Unset):
            repeated = UNSET
        else:
            repeated = PatchV1TasksIdBodyScheduleType1DstRepeated(_repeated)

        _skipped = d.pop("skipped", UNSET)
        skipped: PatchV1TasksIdBodyScheduleType1DstSkipped | Unset
        if isinstance(_skipped, Unset):
            skipped = UNSET
        else:
            skipped = PatchV1TasksIdBodyScheduleType1DstSkipped(_skipped)

        patch_v1_tasks_id_body_schedule_type_1_dst = cls(
            repeated=repeated,
            skipped=skipped,
        )

        return patch_v1_tasks_id_body_schedule_type_1_dst
