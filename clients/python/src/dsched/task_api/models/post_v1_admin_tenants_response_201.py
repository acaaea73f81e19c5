from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1AdminTenantsResponse201")


@_attrs_define
class PostV1AdminTenantsResponse201:
    """
    Attributes:
        id (str):
        name (str):
        max_concurrency (int | None):
        max_tasks (int | None):
        rate_limit_per_second (int | None):
        weight (float): share of a saturated lane relative to other tenants (docs/fair-share.md)
        created_at (str):
        api_key (str):
        signing_secret (str):
    """

    id: str
    name: str
    max_concurrency: int | None
    max_tasks: int | None
    rate_limit_per_second: int | None
    weight: float
    created_at: str
    api_key: str
    signing_secret: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        max_concurrency: int | None
        max_concurrency = self.max_concurrency

        max_tasks: int | None
        max_tasks = self.max_tasks

        rate_limit_per_second: int | None
        rate_limit_per_second = self.rate_limit_per_second

        weight = self.weight

        created_at = self.created_at

        api_key = self.api_key

        signing_secret = self.signing_secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "maxConcurrency": max_concurrency,
                "maxTasks": max_tasks,
                "rateLimitPerSecond": rate_limit_per_second,
                "weight": weight,
                "createdAt": created_at,
                "apiKey": api_key,
                "signingSecret": signing_secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_max_concurrency(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_concurrency = _parse_max_concurrency(d.pop("maxConcurrency"))

        def _parse_max_tasks(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_tasks = _parse_max_tasks(d.pop("maxTasks"))

        def _parse_rate_limit_per_second(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rate_limit_per_second = _parse_rate_limit_per_second(d.pop("rateLimitPerSecond"))

        weight = d.pop("weight")

        created_at = d.pop("createdAt")

        api_key = d.pop("apiKey")

        signing_secret = d.pop("signingSecret")

        post_v1_admin_tenants_response_201 = cls(
            id=id,
            name=name,
            max_concurrency=max_concurrency,
            max_tasks=max_tasks,
            rate_limit_per_second=rate_limit_per_second,
            weight=weight,
            created_at=created_at,
            api_key=api_key,
            signing_secret=signing_secret,
        )

        return post_v1_admin_tenants_response_201
