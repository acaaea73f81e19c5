from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV1JobsIdHeartbeatResponse200")


@_attrs_define
class PostV1JobsIdHeartbeatResponse200:
    """
    Attributes:
        id (str):
        attempt (int):
        state (Literal['running']):
        heartbeat_by (str): the next heartbeat (or the completion) is due by then
        cancel_requested (bool): the job was cancelled meanwhile: stop the work
        deadline_at (str | Unset): the job must complete by then (absent while the executor still holds the call)
    """

    id: str
    attempt: int
    state: Literal["running"]
    heartbeat_by: str
    cancel_requested: bool
    deadline_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        attempt = self.attempt

        state = self.state

        heartbeat_by = self.heartbeat_by

        cancel_requested = self.cancel_requested

        deadline_at = self.deadline_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "attempt": attempt,
                "state": state,
                "heartbeatBy": heartbeat_by,
                "cancelRequested": cancel_requested,
            }
        )
        if deadline_at is not UNSET:
            field_dict["deadlineAt"] = deadline_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        attempt = d.pop("attempt")

        state = cast(Literal["running"], d.pop("state"))
        if state != "running":
            raise ValueError(f"state must match const 'running', got '{state}'")

        heartbeat_by = d.pop("heartbeatBy")

        cancel_requested = d.pop("cancelRequested")

        deadline_at = d.pop("deadlineAt", UNSET)

        post_v1_jobs_id_heartbeat_response_200 = cls(
            id=id,
            attempt=attempt,
            state=state,
            heartbeat_by=heartbeat_by,
            cancel_requested=cancel_requested,
            deadline_at=deadline_at,
        )

        return post_v1_jobs_id_heartbeat_response_200
