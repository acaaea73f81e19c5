from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.post_v1_tasks_body_lane import PostV1TasksBodyLane
from ..models.post_v1_tasks_body_misfire_policy import PostV1TasksBodyMisfirePolicy
from ..models.post_v1_tasks_body_overlap_policy import PostV1TasksBodyOverlapPolicy
from ..models.post_v1_tasks_body_priority import PostV1TasksBodyPriority
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_tasks_body_callbacks import PostV1TasksBodyCallbacks
    from ..models.post_v1_tasks_body_flow_control import PostV1TasksBodyFlowControl
    from ..models.post_v1_tasks_body_metadata import PostV1TasksBodyMetadata
    from ..models.post_v1_tasks_body_retry import PostV1TasksBodyRetry
    from ..models.post_v1_tasks_body_schedule_type_0 import PostV1TasksBodyScheduleType0
    from ..models.post_v1_tasks_body_schedule_type_1 import PostV1TasksBodyScheduleType1
    from ..models.post_v1_tasks_body_schedule_type_2 import PostV1TasksBodyScheduleType2
    from ..models.post_v1_tasks_body_schedule_type_3 import PostV1TasksBodyScheduleType3
    from ..models.post_v1_tasks_body_target import PostV1TasksBodyTarget
    from ..models.post_v1_tasks_body_workflow import PostV1TasksBodyWorkflow
    from ..models.tags import Tags


T = TypeVar("T", bound="PostV1TasksBody")


@_attrs_define
class PostV1TasksBody:
    """
    Attributes:
        name (str):
        schedule (PostV1TasksBodyScheduleType0 | PostV1TasksBodyScheduleType1 | PostV1TasksBodyScheduleType2 |
            PostV1TasksBodyScheduleType3):
        key (str | Unset): the tenant’s own name for the task, unique among its live tasks: how `dsched apply` finds it
        target (PostV1TasksBodyTarget | Unset):
        workflow (PostV1TasksBodyWorkflow | Unset): instead of `target`: each occurrence starts one run of this workflow
            (POST /v1/workflows body)
        priority (PostV1TasksBodyPriority | Unset):  Default: PostV1TasksBodyPriority.NORMAL.
        lane (PostV1TasksBodyLane | Unset):
        retry (PostV1TasksBodyRetry | Unset):
        misfire_policy (PostV1TasksBodyMisfirePolicy | Unset):  Default: PostV1TasksBodyMisfirePolicy.FIRE_ONCE.
        overlap_policy (PostV1TasksBodyOverlapPolicy | Unset):  Default: PostV1TasksBodyOverlapPolicy.ALLOW.
        metadata (PostV1TasksBodyMetadata | Unset):
        tags (Tags | Unset): string to string, at most 10; keys 1-64 characters ([A-Za-z0-9][A-Za-z0-9_.-/]*), values
            1-128; copied to every job and run made from it
        jitter_s (int | Unset): each occurrence runs at a deterministic instant in [t, t + jitterS s); 0: at t Default:
            0.
        pause_after_failures (int | Unset): pause a cron or interval task after this many dead occurrences in a row
        callbacks (PostV1TasksBodyCallbacks | Unset):
        flow_control (PostV1TasksBodyFlowControl | Unset): flow control per key (docs/flow-control.md): over-limit calls
            wait, they do not fail
    """

    name: str
    schedule: (
        PostV1TasksBodyScheduleType0
        | PostV1TasksBodyScheduleType1
        | PostV1TasksBodyScheduleType2
        | PostV1TasksBodyScheduleType3
    )
    key: str | Unset = UNSET
    target: PostV1TasksBodyTarget | Unset = UNSET
    workflow: PostV1TasksBodyWorkflow | Unset = UNSET
    priority: PostV1TasksBodyPriority | Unset = PostV1TasksBodyPriority.NORMAL
    lane: PostV1TasksBodyLane | Unset = UNSET
    retry: PostV1TasksBodyRetry | Unset = UNSET
    misfire_policy: PostV1TasksBodyMisfirePolicy | Unset = PostV1TasksBodyMisfirePolicy.FIRE_ONCE
    overlap_policy: PostV1TasksBodyOverlapPolicy | Unset = PostV1TasksBodyOverlapPolicy.ALLOW
    metadata: PostV1TasksBodyMetadata | Unset = UNSET
    tags: Tags | Unset = UNSET
    jitter_s: int | Unset = 0
    pause_after_failures: int | Unset = UNSET
    callbacks: PostV1TasksBodyCallbacks | Unset = UNSET
    flow_control: PostV1TasksBodyFlowControl | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.post_v1_tasks_body_schedule_type_0 import PostV1TasksBodyScheduleType0  # noqa: PLC0415
        from ..models.post_v1_tasks_body_schedule_type_1 import PostV1TasksBodyScheduleType1  # noqa: PLC0415
        from ..models.post_v1_tasks_body_schedule_type_2 import PostV1TasksBodyScheduleType2  # noqa: PLC0415

        name = self.name

        schedule: dict[str, Any]
        if isinstance(self.schedule, PostV1TasksBodyScheduleType0):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, PostV1TasksBodyScheduleType1):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, PostV1TasksBodyScheduleType2):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule.to_dict()

        key = self.key

        target: dict[str, Any] | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target.to_dict()

        workflow: dict[str, Any] | Unset = UNSET
        if not isinstance(self.workflow, Unset):
            workflow = self.workflow.to_dict()

        priority: str | Unset = UNSET
        if not isinstance(self.priority, Unset):
            priority = self.priority.value

        lane: str | Unset = UNSET
        if not isinstance(self.lane, Unset):
            lane = self.lane.value

        retry: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retry, Unset):
            retry = self.retry.to_dict()

        misfire_policy: str | Unset = UNSET
        if not isinstance(self.misfire_policy, Unset):
            misfire_policy = self.misfire_policy.value

        overlap_policy: str | Unset = UNSET
        if not isinstance(self.overlap_policy, Unset):
            overlap_policy = self.overlap_policy.value

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        jitter_s = self.jitter_s

        pause_after_failures = self.pause_after_failures

        callbacks: dict[str, Any] | Unset = UNSET
        if not isinstance(self.callbacks, Unset):
            callbacks = self.callbacks.to_dict()

        flow_control: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flow_control, Unset):
            flow_control = self.flow_control.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "schedule": schedule,
            }
        )
        if key is not UNSET:
            field_dict["key"] = key
        if target is not UNSET:
            field_dict["target"] = target
        if workflow is not UNSET:
            field_dict["workflow"] = workflow
        if priority is not UNSET:
            field_dict["priority"] = priority
        if lane is not UNSET:
            field_dict["lane"] = lane
        if retry is not UNSET:
            field_dict["retry"] = retry
        if misfire_policy is not UNSET:
            field_dict["misfirePolicy"] = misfire_policy
        if overlap_policy is not UNSET:
            field_dict["overlapPolicy"] = overlap_policy
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if tags is not UNSET:
            field_dict["tags"] = tags
        if jitter_s is not UNSET:
            field_dict["jitterS"] = jitter_s
        if pause_after_failures is not UNSET:
            field_dict["pauseAfterFailures"] = pause_after_failures
        if callbacks is not UNSET:
            field_dict["callbacks"] = callbacks
        if flow_control is not UNSET:
            field_dict["flowControl"] = flow_control

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_tasks_body_callbacks import PostV1TasksBodyCallbacks  # noqa: PLC0415
        from ..models.post_v1_tasks_body_flow_control import PostV1TasksBodyFlowControl  # noqa: PLC0415
        from ..models.post_v1_tasks_body_metadata import PostV1TasksBodyMetadata  # noqa: PLC0415
        from ..models.post_v1_tasks_body_retry import PostV1TasksBodyRetry  # noqa: PLC0415
        from ..models.post_v1_tasks_body_schedule_type_0 import PostV1TasksBodyScheduleType0  # noqa: PLC0415
        from ..models.post_v1_tasks_body_schedule_type_1 import PostV1TasksBodyScheduleType1  # noqa: PLC0415
        from ..models.post_v1_tasks_body_schedule_type_2 import PostV1TasksBodyScheduleType2  # noqa: PLC0415
        from ..models.post_v1_tasks_body_schedule_type_3 import PostV1TasksBodyScheduleType3  # noqa: PLC0415
        from ..models.post_v1_tasks_body_target import PostV1TasksBodyTarget  # noqa: PLC0415
        from ..models.post_v1_tasks_body_workflow import PostV1TasksBodyWorkflow  # noqa: PLC0415
        from ..models.tags import Tags  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_schedule(
            data: object,
        ) -> (
            PostV1TasksBodyScheduleType0
            | PostV1TasksBodyScheduleType1
            | PostV1TasksBodyScheduleType2
            | PostV1TasksBodyScheduleType3
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = PostV1TasksBodyScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_1 = PostV1TasksBodyScheduleType1.from_dict(data)

                return schedule_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_2 = PostV1TasksBodyScheduleType2.from_dict(data)

                return schedule_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            schedule_type_3 = PostV1TasksBodyScheduleType3.from_dict(data)

            return schedule_type_3

        schedule = _parse_schedule(d.pop("schedule"))

        key = d.pop("key", UNSET)

        _target = d.pop("target", UNSET)
        target: PostV1TasksBodyTarget | Unset
        if isinstance(_target, Unset):
            target = UNSET
        else:
            target = PostV1TasksBodyTarget.from_dict(_target)

        _workflow = d.pop("workflow", UNSET)
        workflow: PostV1TasksBodyWorkflow | Unset
        if isinstance(_workflow, Unset):
            workflow = UNSET
        else:
            workflow = PostV1TasksBodyWorkflow.from_dict(_workflow)

        _priority = d.pop("priority", UNSET)
        priority: PostV1TasksBodyPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = PostV1TasksBodyPriority(_priority)

        _lane = d.pop("lane", UNSET)
        lane: PostV1TasksBodyLane | Unset
        if isinstance(_lane, Unset):
            lane = UNSET
        else:
            lane = PostV1TasksBodyLane(_lane)

        _retry = d.pop("retry", UNSET)
        retry: PostV1TasksBodyRetry | Unset
        if isinstance(_retry, Unset):
            retry = UNSET
        else:
            retry = PostV1TasksBodyRetry.from_dict(_retry)

        _misfire_policy = d.pop("misfirePolicy", UNSET)
        misfire_policy: PostV1TasksBodyMisfirePolicy | Unset
        if isinstance(_misfire_policy, Unset):
            misfire_policy = UNSET
        else:
            misfire_policy = PostV1TasksBodyMisfirePolicy(_misfire_policy)

        _overlap_policy = d.pop("overlapPolicy", UNSET)
        overlap_policy: PostV1TasksBodyOverlapPolicy | Unset
        if isinstance(_overlap_policy, Unset):
            overlap_policy = UNSET
        else:
            overlap_policy = PostV1TasksBodyOverlapPolicy(_overlap_policy)

        _metadata = d.pop("metadata", UNSET)
        metadata: PostV1TasksBodyMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = PostV1TasksBodyMetadata.from_dict(_metadata)

        _tags = d.pop("tags", UNSET)
        tags: Tags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = Tags.from_dict(_tags)

        jitter_s = d.pop("jitterS", UNSET)

        pause_after_failures = d.pop("pauseAfterFailures", UNSET)

        _callbacks = d.pop("callbacks", UNSET)
        callbacks: PostV1TasksBodyCallbacks | Unset
        if isinstance(_callbacks, Unset):
            callbacks = UNSET
        else:
            callbacks = PostV1TasksBodyCallbacks.from_dict(_callbacks)

        _flow_control = d.pop("flowControl", UNSET)
        flow_control: PostV1TasksBodyFlowControl | Unset
        if isinstance(_flow_control, Unset):
            flow_control = UNSET
        else:
            flow_control = PostV1TasksBodyFlowControl.from_dict(_flow_control)

        post_v1_tasks_body = cls(
            name=name,
            schedule=schedule,
            key=key,
            target=target,
            workflow=workflow,
            priority=priority,
            lane=lane,
            retry=retry,
            misfire_policy=misfire_policy,
            overlap_policy=overlap_policy,
            metadata=metadata,
            tags=tags,
            jitter_s=jitter_s,
            pause_after_failures=pause_after_failures,
            callbacks=callbacks,
            flow_control=flow_control,
        )

        return post_v1_tasks_body
