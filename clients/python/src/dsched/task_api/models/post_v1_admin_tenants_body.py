from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1AdminTenantsBody")


@_attrs_define
class PostV1AdminTenantsBody:
    """
    Attributes:
        name (str):
        max_concurrency (int | None | Unset):
        max_tasks (int | None | Unset):
        rate_limit_per_second (int | None | Unset):
        weight (float | Unset): share of a saturated lane relative to other tenants (docs/fair-share.md), 0.001–1000,
            default 1; kept to 3 decimal places; applies to jobs tagged after the change
    """

    name: str
    max_concurrency: int | None | Unset = UNSET
    max_tasks: int | None | Unset = UNSET
    rate_limit_per_second: int | None | Unset = UNSET
    weight: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        max_concurrency: int | None | Unset
        if isinstance(self.max_concurrency, Unset):
            max_concurrency = UNSET
        else:
            max_concurrency = self.max_concurrency

        max_tasks: int | None | Unset
        if isinstance(self.max_tasks, Unset):
            max_tasks = UNSET
        else:
            max_tasks = self.max_tasks

        rate_limit_per_second: int | None | Unset
        if isinstance(self.rate_limit_per_second, Unset):
            rate_limit_per_second = UNSET
        else:
            rate_limit_per_second = self.rate_limit_per_second

        weight = self.weight

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if max_concurrency is not UNSET:
            field_dict["maxConcurrency"] = max_concurrency
        if max_tasks is not UNSET:
            field_dict["maxTasks"] = max_tasks
        if rate_limit_per_second is not UNSET:
            field_dict["rateLimitPerSecond"] = rate_limit_per_second
        if weight is not UNSET:
            field_dict["weight"] = weight

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_max_concurrency(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_concurrency = _parse_max_concurrency(d.pop("maxConcurrency", UNSET))

        def _parse_max_tasks(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_tasks = _parse_max_tasks(d.pop("maxTasks", UNSET))

        def _parse_rate_limit_per_second(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rateLimitPerSecond", UNSET))

        weight = d.pop("weight", UNSET)

        post_v1_admin_tenants_body = cls(
            name=name,
            max_concurrency=max_concurrency,
            max_tasks=max_tasks,
            rate_limit_per_second=rate_limit_per_second,
            weight=weight,
        )

        return post_v1_admin_tenants_body
