from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.job_priority import JobPriority
from ..models.job_state import JobState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_attempts_item import JobAttemptsItem
    from ..models.job_output import JobOutput
    from ..models.job_progress import JobProgress
    from ..models.tags import Tags


T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
    """
    Attributes:
        id (str):
        task_id (None | str):
        kind (str):
        state (JobState):
        attempt (int): attempts made so far, over every attempt group
        max_attempts (int):
        priority (JobPriority):
        scheduled_for (str):
        attempts (list[JobAttemptsItem]):
        workflow_id (str | Unset):
        node_id (str | Unset):
        attempt_group (int | Unset): 1, plus one per redrive from the DLQ
        started_at (str | Unset):
        finished_at (str | Unset):
        last_status (int | Unset):
        last_error (str | Unset):
        cancel_requested (bool | Unset): a cancel was requested while an executor was calling it
        deadline_at (str | Unset): a parked (202) job must complete by then
        heartbeat_by (str | Unset): a parked (202) job must heartbeat (or complete) by then
        progress (JobProgress | Unset): the last heartbeat’s progress
        output (JobOutput | Unset): what the completion reported
        tags (Tags | Unset): string to string, at most 10; keys 1-64 characters ([A-Za-z0-9][A-Za-z0-9_.-/]*), values
            1-128; copied to every job and run made from it
    """

    id: str
    task_id: None | str
    kind: str
    state: JobState
    attempt: int
    max_attempts: int
    priority: JobPriority
    scheduled_for: str
    attempts: list[JobAttemptsItem]
    workflow_id: str | Unset = UNSET
    node_id: str | Unset = UNSET
    attempt_group: int | Unset = UNSET
    started_at: str | Unset = UNSET
    finished_at: str | Unset = UNSET
    last_status: int | Unset = UNSET
    last_error: str | Unset = UNSET
    cancel_requested: bool | Unset = UNSET
    deadline_at: str | Unset = UNSET
    heartbeat_by: str | Unset = UNSET
    progress: JobProgress | Unset = UNSET
    output: JobOutput | Unset = UNSET
    tags: Tags | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        task_id: None | str
        task_id = self.task_id

        kind = self.kind

        state = self.state.value

        attempt = self.attempt

        max_attempts = self.max_attempts

        priority = self.priority.value

        scheduled_for = self.scheduled_for

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        workflow_id = self.workflow_id

        node_id = self.node_id

        attempt_group = self.attempt_group

        started_at = self.started_at

        finished_at = self.finished_at

        last_status = self.last_status

        last_error = self.last_error

        cancel_requested = self.cancel_requested

        deadline_at = self.deadline_at

        heartbeat_by = self.heartbeat_by

        progress: dict[str, Any] | Unset = UNSET
        if not isinstance(self.progress, Unset):
            progress = self.progress.to_dict()

        output: dict[str, Any] | Unset = UNSET
        if not isinstance(self.output, Unset):
            output = self.output.to_dict()

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "taskId": task_id,
                "kind": kind,
                "state": state,
                "attempt": attempt,
                "maxAttempts": max_attempts,
                "priority": priority,
                "scheduledFor": scheduled_for,
                "attempts": attempts,
            }
        )
        if workflow_id is not UNSET:
            field_dict["workflowId"] = workflow_id
        if node_id is not UNSET:
            field_dict["nodeId"] = node_id
        if attempt_group is not UNSET:
            field_dict["attemptGroup"] = attempt_group
        if started_at is not UNSET:
            field_dict["startedAt"] = started_at
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if last_status is not UNSET:
            field_dict["lastStatus"] = last_status
        if last_error is not UNSET:
            field_dict["lastError"] = last_error
        if cancel_requested is not UNSET:
            field_dict["cancelRequested"] = cancel_requested
        if deadline_at is not UNSET:
            field_dict["deadlineAt"] = deadline_at
        if heartbeat_by is not UNSET:
            field_dict["heartbeatBy"] = heartbeat_by
        if progress is not UNSET:
            field_dict["progress"] = progress
        if output is not UNSET:
            field_dict["output"] = output
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_attempts_item import JobAttemptsItem  # noqa: PLC0415
        from ..models.job_output import JobOutput  # noqa: PLC0415
        from ..models.job_progress import JobProgress  # noqa: PLC0415
        from ..models.tags import Tags  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_task_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task_id = _parse_task_id(d.pop("taskId"))

        kind = d.pop("kind")

        state = JobState(d.pop("state"))

        attempt = d.pop("attempt")

        max_attempts = d.pop("maxAttempts")

        priority = JobPriority(d.pop("priority"))

        scheduled_for = d.pop("scheduledFor")

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = JobAttemptsItem.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        workflow_id = d.pop("workflowId", UNSET)

        node_id = d.pop("nodeId", UNSET)

        attempt_group = d.pop("attemptGroup", UNSET)

        started_at = d.pop("startedAt", UNSET)

        finished_at = d.pop("finishedAt", UNSET)

        last_status = d.pop("lastStatus", UNSET)

        last_error = d.pop("lastError", UNSET)

        cancel_requested = d.pop("cancelRequested", UNSET)

        deadline_at = d.pop("deadlineAt", UNSET)

        heartbeat_by = d.pop("heartbeatBy", UNSET)

        _progress = d.pop("progress", UNSET)
        progress: JobProgress | Unset
        if isinstance(_progress, Unset):
            progress = UNSET
        else:
            progress = JobProgress.from_dict(_progress)

        _output = d.pop("output", UNSET)
        output: JobOutput | Unset
        if isinstance(_output, Unset):
            output = UNSET
        else:
            output = JobOutput.from_dict(_output)

        _tags = d.pop("tags", UNSET)
        tags: Tags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = Tags.from_dict(_tags)

        job = cls(
            id=id,
            task_id=task_id,
            kind=kind,
            state=state,
            attempt=attempt,
            max_attempts=max_attempts,
            priority=priority,
            scheduled_for=scheduled_for,
            attempts=attempts,
            workflow_id=workflow_id,
            node_id=node_id,
            attempt_group=attempt_group,
            started_at=started_at,
            finished_at=finished_at,
            last_status=last_status,
            last_error=last_error,
            cancel_requested=cancel_requested,
            deadline_at=deadline_at,
            heartbeat_by=heartbeat_by,
            progress=progress,
            output=output,
            tags=tags,
        )

        return job
