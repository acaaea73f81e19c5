from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..models.task_lane_type_0 import TaskLaneType0
from ..models.task_misfire_policy import TaskMisfirePolicy
from ..models.task_overlap_policy import TaskOverlapPolicy
from ..models.task_priority import TaskPriority
from ..models.task_state import TaskState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.cron_schedule_view import CronScheduleView
    from ..models.interval_schedule_view import IntervalScheduleView
    from ..models.once_schedule_view import OnceScheduleView
    from ..models.tags import Tags
    from ..models.task_callbacks import TaskCallbacks
    from ..models.task_flow_control import TaskFlowControl
    from ..models.task_metadata import TaskMetadata
    from ..models.task_retry import TaskRetry
    from ..models.task_target import TaskTarget
    from ..models.task_workflow import TaskWorkflow


T = TypeVar("T", bound="Task")


@_attrs_define
class Task:
    """
    Attributes:
        id (str):
        name (str):
        schedule (CronScheduleView | IntervalScheduleView | OnceScheduleView):
        priority (TaskPriority):
        lane (Literal['workflow'] | TaskLaneType0): `workflow` for a workflow task: its occurrences start runs, whose
            nodes choose their own lanes
        retry (TaskRetry):
        misfire_policy (TaskMisfirePolicy):
        overlap_policy (TaskOverlapPolicy):
        state (TaskState):
        next_fire_at (None | str):
        version (int):
        created_at (str):
        updated_at (str):
        key (str | Unset): the tenant’s own name for the task, when it has one
        target (TaskTarget | Unset): absent on a workflow task, which carries `workflow` instead
        workflow (TaskWorkflow | Unset): a workflow task: each occurrence starts one run of this body
            (docs/workflows.md)
        metadata (TaskMetadata | Unset):
        tags (Tags | Unset): string to string, at most 10; keys 1-64 characters ([A-Za-z0-9][A-Za-z0-9_.-/]*), values
            1-128; copied to every job and run made from it
        jitter_s (int | Unset): the flexible window, when the task has one
        pause_after_failures (int | Unset):
        callbacks (TaskCallbacks | Unset):
        flow_control (TaskFlowControl | Unset): flow control per key, when the task has one (docs/flow-control.md)
        paused_reason (str | Unset): why dsched paused the task (pauseAfterFailures)
    """

    id: str
    name: str
    schedule: CronScheduleView | IntervalScheduleView | OnceScheduleView
    priority: TaskPriority
    lane: Literal["workflow"] | TaskLaneType0
    retry: TaskRetry
    misfire_policy: TaskMisfirePolicy
    overlap_policy: TaskOverlapPolicy
    state: TaskState
    next_fire_at: None | str
    version: int
    created_at: str
    updated_at: str
    key: str | Unset = UNSET
    target: TaskTarget | Unset = UNSET
    workflow: TaskWorkflow | Unset = UNSET
    metadata: TaskMetadata | Unset = UNSET
    tags: Tags | Unset = UNSET
    jitter_s: int | Unset = UNSET
    pause_after_failures: int | Unset = UNSET
    callbacks: TaskCallbacks | Unset = UNSET
    flow_control: TaskFlowControl | Unset = UNSET
    paused_reason: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.cron_schedule_view import CronScheduleView  # noqa: PLC0415
        from ..models.once_schedule_view import OnceScheduleView  # noqa: PLC0415

        id = self.id

        name = self.name

        schedule: dict[str, Any]
        if isinstance(self.schedule, OnceScheduleView):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, CronScheduleView):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule.to_dict()

        priority = self.priority.value

        lane: Literal["workflow"] | str
        if isinstance(self.lane, TaskLaneType0):
            lane = self.lane.value
        else:
            lane = self.lane

        retry = self.retry.to_dict()

        misfire_policy = self.misfire_policy.value

        overlap_policy = self.overlap_policy.value

        state = self.state.value

        next_fire_at: None | str
        next_fire_at = self.next_fire_at

        version = self.version

        created_at = self.created_at

        updated_at = self.updated_at

        key = self.key

        target: dict[str, Any] | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target.to_dict()

        workflow: dict[str, Any] | Unset = UNSET
        if not isinstance(self.workflow, Unset):
            workflow = self.workflow.to_dict()

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

        paused_reason = self.paused_reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "schedule": schedule,
                "priority": priority,
                "lane": lane,
                "retry": retry,
                "misfirePolicy": misfire_policy,
                "overlapPolicy": overlap_policy,
                "state": state,
                "nextFireAt": next_fire_at,
                "version": version,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
        if key is not UNSET:
            field_dict["key"] = key
        if target is not UNSET:
            field_dict["target"] = target
        if workflow is not UNSET:
            field_dict["workflow"] = workflow
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
        if paused_reason is not UNSET:
            field_dict["pausedReason"] = paused_reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cron_schedule_view import CronScheduleView  # noqa: PLC0415
        from ..models.interval_schedule_view import IntervalScheduleView  # noqa: PLC0415
        from ..models.once_schedule_view import OnceScheduleView  # noqa: PLC0415
        from ..models.tags import Tags  # noqa: PLC0415
        from ..models.task_callbacks import TaskCallbacks  # noqa: PLC0415
        from ..models.task_flow_control import TaskFlowControl  # noqa: PLC0415
        from ..models.task_metadata import TaskMetadata  # noqa: PLC0415
        from ..models.task_retry import TaskRetry  # noqa: PLC0415
        from ..models.task_target import TaskTarget  # noqa: PLC0415
        from ..models.task_workflow import TaskWorkflow  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_schedule(data: object) -> CronScheduleView | IntervalScheduleView | OnceScheduleView:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_schedule_view_type_0 = OnceScheduleView.from_dict(data)

                return componentsschemas_schedule_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_schedule_view_type_1 = CronScheduleView.from_dict(data)

                return componentsschemas_schedule_view_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_schedule_view_type_2 = IntervalScheduleView.from_dict(data)

            return componentsschemas_schedule_view_type_2

        schedule = _parse_schedule(d.pop("schedule"))

        priority = TaskPriority(d.pop("priority"))

        def _parse_lane(data: object) -> Literal["workflow"] | TaskLaneType0:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                lane_type_0 = TaskLaneType0(data)

                return lane_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            lane_type_1 = cast(Literal["workflow"], data)
            if lane_type_1 != "workflow":
                raise ValueError(f"lane_type_1 must match const 'workflow', got '{lane_type_1}'")
            return lane_type_1

        lane = _parse_lane(d.pop("lane"))

        retry = TaskRetry.from_dict(d.pop("retry"))

        misfire_policy = TaskMisfirePolicy(d.pop("misfirePolicy"))

        overlap_policy = TaskOverlapPolicy(d.pop("overlapPolicy"))

        state = TaskState(d.pop("state"))

        def _parse_next_fire_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_fire_at = _parse_next_fire_at(d.pop("nextFireAt"))

        version = d.pop("version")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        key = d.pop("key", UNSET)

        _target = d.pop("target", UNSET)
        target: TaskTarget | Unset
        if isinstance(_target, Unset):
            target = UNSET
        else:
            target = TaskTarget.from_dict(_target)

        _workflow = d.pop("workflow", UNSET)
        workflow: TaskWorkflow | Unset
        if isinstance(_workflow, Unset):
            workflow = UNSET
        else:
            workflow = TaskWorkflow.from_dict(_workflow)

        _metadata = d.pop("metadata", UNSET)
        metadata: TaskMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = TaskMetadata.from_dict(_metadata)

        _tags = d.pop("tags", UNSET)
        tags: Tags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = Tags.from_dict(_tags)

        jitter_s = d.pop("jitterS", UNSET)

        pause_after_failures = d.pop("pauseAfterFailures", UNSET)

        _callbacks = d.pop("callbacks", UNSET)
        callbacks: TaskCallbacks | Unset
        if isinstance(_callbacks, Unset):
            callbacks = UNSET
        else:
            callbacks = TaskCallbacks.from_dict(_callbacks)

        _flow_control = d.pop("flowControl", UNSET)
        flow_control: TaskFlowControl | Unset
        if isinstance(_flow_control, Unset):
            flow_control = UNSET
        else:
            flow_control = TaskFlowControl.from_dict(_flow_control)

        paused_reason = d.pop("pausedReason", UNSET)

        task = cls(
            id=id,
            name=name,
            schedule=schedule,
            priority=priority,
            lane=lane,
            retry=retry,
            misfire_policy=misfire_policy,
            overlap_policy=overlap_policy,
            state=state,
            next_fire_at=next_fire_at,
            version=version,
            created_at=created_at,
            updated_at=updated_at,
            key=key,
            target=target,
            workflow=workflow,
            metadata=metadata,
            tags=tags,
            jitter_s=jitter_s,
            pause_after_failures=pause_after_failures,
            callbacks=callbacks,
            flow_control=flow_control,
            paused_reason=paused_reason,
        )

        return task
