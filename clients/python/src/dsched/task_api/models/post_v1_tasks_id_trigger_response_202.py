from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV1TasksIdTriggerResponse202")


@_attrs_define
class PostV1TasksIdTriggerResponse202:
    """
    Attributes:
        job_id (str):
    """

    job_id: str

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "jobId": job_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        job_id = d.pop("jobId")

        post_v1_tasks_id_trigger_response_202 = cls(
            job_id=job_id,
        )

        return post_v1_tasks_id_trigger_response_202
