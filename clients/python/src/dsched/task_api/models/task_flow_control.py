from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TaskFlowControl")


@_attrs_define
class TaskFlowControl:
    """flow control per key, when the task has one (docs/flow-control.md)

    Attributes:
        key (str):
        parallelism (int | Unset):
        rate_per_second (float | Unset):
    """

    key: str
    parallelism: int | Unset = UNSET
    rate_per_second: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        parallelism = self.parallelism

        rate_per_second = self.rate_per_second

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
            }
        )
        if parallelism is not UNSET:
            field_dict["parallelism"] = parallelism
        if rate_per_second is not UNSET:
            field_dict["ratePerSecond"] = rate_per_second

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        key = d.pop("key")

        parallelism = d.pop("parallelism", UNSET)

        rate_per_second = d.pop("ratePerSecond", UNSET)

        task_flow_control = cls(
            key=key,
            parallelism=parallelism,
            rate_per_second=rate_per_second,
        )

        return task_flow_control
