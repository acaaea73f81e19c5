from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchV1TasksIdBodyWorkflowNodesItemSleep")


@_attrs_define
class PatchV1TasksIdBodyWorkflowNodesItemSleep:
    """required for a `sleep` node

    Attributes:
        for_ (str | Unset): a duration from when the node is reached: `90s`, `10m`, `1h30m`, `2d`
        until (datetime.datetime | Unset): an RFC 3339 time to wake at
    """

    for_: str | Unset = UNSET
    until: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        for_ = self.for_

        until: str | Unset = UNSET
        if not isinstance(self.until, Unset):
            until = self.until.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if for_ is not UNSET:
            field_dict["for"] = for_
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        for_ = d.pop("for", UNSET)

        _until = d.pop("until", UNSET)
        until: datetime.datetime | Unset
        if isinstance(_until, Unset):
            until = UNSET
        else:
            until = datetime.datetime.fromisoformat(_until)

        patch_v1_tasks_id_body_workflow_nodes_item_sleep = cls(
            for_=for_,
            until=until,
        )

        return patch_v1_tasks_id_body_workflow_nodes_item_sleep
