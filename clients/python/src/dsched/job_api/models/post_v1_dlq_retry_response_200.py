from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1DlqRetryResponse200")


@_attrs_define
class PostV1DlqRetryResponse200:
    """
    Attributes:
        count (int): jobs moved from the DLQ back to pending
        job_ids (list[str]):
    """

    count: int
    job_ids: list[str]

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        job_ids = self.job_ids

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "count": count,
                "jobIds": job_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        job_ids = cast(list[str], d.pop("jobIds"))

        post_v1_dlq_retry_response_200 = cls(
            count=count,
            job_ids=job_ids,
        )

        return post_v1_dlq_retry_response_200
