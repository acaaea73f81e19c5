from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_jobs_id_heartbeat_body_progress import PostV1JobsIdHeartbeatBodyProgress


T = TypeVar("T", bound="PostV1JobsIdHeartbeatBody")


@_attrs_define
class PostV1JobsIdHeartbeatBody:
    """
    Attributes:
        attempt (int): The attempt token: the Dsched-Attempt header of the call being completed
        progress (PostV1JobsIdHeartbeatBodyProgress | Unset): Any JSON object; kept on the job and shown by GET
            /v1/jobs/{id}
    """

    attempt: int
    progress: PostV1JobsIdHeartbeatBodyProgress | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        progress: dict[str, Any] | Unset = UNSET
        if not isinstance(self.progress, Unset):
            progress = self.progress.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
            }
        )
        if progress is not UNSET:
            field_dict["progress"] = progress

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_jobs_id_heartbeat_body_progress import PostV1JobsIdHeartbeatBodyProgress  # noqa: PLC0415

        d = dict(src_dict)
        attempt = d.pop("attempt")

        _progress = d.pop("progress", UNSET)
        progress: PostV1JobsIdHeartbeatBodyProgress | Unset
        if isinstance(_progress, Unset):
            progress = UNSET
        else:
            progress = PostV1JobsIdHeartbeatBodyProgress.from_dict(_progress)

        post_v1_jobs_id_heartbeat_body = cls(
            attempt=attempt,
            progress=progress,
        )

        return post_v1_jobs_id_heartbeat_body
