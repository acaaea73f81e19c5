from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_lane import PatchV1TasksIdBodyLane
from ..models.patch_v1_tasks_id_body_misfire_policy import PatchV1TasksIdBodyMisfirePolicy
from ..models.patch_v1_tasks_id_body_overlap_policy import PatchV1TasksIdBodyOverlapPolicy
from ..models.patch_v1_tasks_id_body_priority import PatchV1TasksIdBodyPriority
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_v1_tasks_id_body_callbacks_type_0 import PatchV1TasksIdBodyCallbacksType0
    from ..models.patch_v1_tasks_id_body_flow_control_type_0 import PatchV1TasksIdBodyFlowControlType0
    from ..models.patch_v1_tasks_id_body_metadata_type_0 import PatchV1TasksIdBodyMetadataType0
    from ..models.patch_v1_tasks_id_body_retry import PatchV1TasksIdBodyRetry
    from ..models.patch_v1_tasks_id_body_schedule_type_0 import PatchV1TasksIdBodyScheduleType0
    from ..models.patch_v1_tasks_id_body_schedule_type_1 import PatchV1TasksIdBodyScheduleType1
    from ..models.patch_v1_tasks_id_body_schedule_type_2 import PatchV1TasksIdBodyScheduleType2
    from ..models.patch_v1_tasks_id_body_schedule_type_3 import PatchV1TasksIdBodyScheduleType3
    from ..models.patch_v1_tasks_id_body_target import PatchV1TasksIdBodyTarget
    from ..models.patch_v1_tasks_id_body_workflow import PatchV1TasksIdBodyWorkflow
    from ..models.tags import Tags


T = TypeVar("T", bound="PatchV1TasksIdBody")


@_attrs_define
class PatchV1TasksIdBody:
    """
    Attributes:
        name (str | Unset):
        key (None | str | Unset): set, change, or (null) remove the task’s key
        schedule (PatchV1TasksIdBodyScheduleType0 | PatchV1TasksIdBodyScheduleType1 | PatchV1TasksIdBodyScheduleType2 |
            PatchV1TasksIdBodyScheduleType3 | Unset):
        target (PatchV1TasksIdBodyTarget | Unset):
        priority (PatchV1TasksIdBodyPriority | Unset):
        lane (PatchV1TasksIdBodyLane | Unset):
        retry (PatchV1TasksIdBodyRetry | Unset):
        misfire_policy (PatchV1TasksIdBodyMisfirePolicy | Unset):
        overlap_policy (PatchV1TasksIdBodyOverlapPolicy | Unset):
        metadata (None | PatchV1TasksIdBodyMetadataType0 | Unset):
        tags (None | Tags | Unset):
        jitter_s (int | Unset): each occurrence runs at a deterministic instant in [t, t + jitterS s); 0: at t
        pause_after_failures (int | None | Unset):
        callbacks (None | PatchV1TasksIdBodyCallbacksType0 | Unset):
        flow_control (None | PatchV1TasksIdBodyFlowControlType0 | Unset):
        workflow (PatchV1TasksIdBodyWorkflow | Unset): a workflow task’s new workflow (occurrences not started yet run
            the new one)
    """

    name: str | Unset = UNSET
    key: None | str | Unset = UNSET
    schedule: (
        PatchV1TasksIdBodyScheduleType0
        | PatchV1TasksIdBodyScheduleType1
        | PatchV1TasksIdBodyScheduleType2
        | PatchV1TasksIdBodyScheduleType3
        | Unset
    ) = UNSET
    target: PatchV1TasksIdBodyTarget | Unset = UNSET
    priority: PatchV1TasksIdBodyPriority | Unset = UNSET
    lane: PatchV1TasksIdBodyLane | Unset = UNSET
    retry: PatchV1TasksIdBodyRetry | Unset = UNSET
    misfire_policy: PatchV1TasksIdBodyMisfirePolicy | Unset = UNSET
    overlap_policy: PatchV1TasksIdBodyOverlapPolicy | Unset = UNSET
    metadata: None | PatchV1TasksIdBodyMetadataType0 | Unset = UNSET
    tags: None | Tags | Unset = UNSET
    jitter_s: int | Unset = UNSET
    pause_after_failures: int | None | Unset = UNSET
    callbacks: None | PatchV1TasksIdBodyCallbacksType0 | Unset = UNSET
    flow_control: None | PatchV1TasksIdBodyFlowControlType0 | Unset = UNSET
    workflow: PatchV1TasksIdBodyWorkflow | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.patch_v1_tasks_id_body_callbacks_type_0 import PatchV1TasksIdBodyCallbacksType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_flow_control_type_0 import PatchV1TasksIdBodyFlowControlType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_metadata_type_0 import PatchV1TasksIdBodyMetadataType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_0 import PatchV1TasksIdBodyScheduleType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_1 import PatchV1TasksIdBodyScheduleType1  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_2 import PatchV1TasksIdBodyScheduleType2  # noqa: PLC0415
        from ..models.tags import Tags  # noqa: PLC0415

        name = self.name

        key: None | str | Unset
        if isinstance(self.key, Unset):
            key = UNSET
        else:
            key = self.key

        schedule: dict[str, Any] | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, PatchV1TasksIdBodyScheduleType0):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, PatchV1TasksIdBodyScheduleType1):
            schedule = self.schedule.to_dict()
        elif isinstance(self.schedule, PatchV1TasksIdBodyScheduleType2):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule.to_dict()

        target: dict[str, Any] | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target.to_dict()

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

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, PatchV1TasksIdBodyMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        tags: dict[str, Any] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, Tags):
            tags = self.tags.to_dict()
        else:
            tags = self.tags

        jitter_s = self.jitter_s

        pause_after_failures: int | None | Unset
        if isinstance(self.pause_after_failures, Unset):
            pause_after_failures = UNSET
        else:
            pause_after_failures = self.pause_after_failures

        callbacks: dict[str, Any] | None | Unset
        if isinstance(self.callbacks, Unset):
            callbacks = UNSET
        elif isinstance(self.callbacks, PatchV1TasksIdBodyCallbacksType0):
            callbacks = self.callbacks.to_dict()
        else:
            callbacks = self.callbacks

        flow_control: dict[str, Any] | None | Unset
        if isinstance(self.flow_control, Unset):
            flow_control = UNSET
        elif isinstance(self.flow_control, PatchV1TasksIdBodyFlowControlType0):
            flow_control = self.flow_control.to_dict()
        else:
            flow_control = self.flow_control

        workflow: dict[str, Any] | Unset = UNSET
        if not isinstance(self.workflow, Unset):
            workflow = self.workflow.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if key is not UNSET:
            field_dict["key"] = key
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if target is not UNSET:
            field_dict["target"] = target
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
        if workflow is not UNSET:
            field_dict["workflow"] = workflow

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patch_v1_tasks_id_body_callbacks_type_0 import PatchV1TasksIdBodyCallbacksType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_flow_control_type_0 import PatchV1TasksIdBodyFlowControlType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_metadata_type_0 import PatchV1TasksIdBodyMetadataType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_retry import PatchV1TasksIdBodyRetry  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_0 import PatchV1TasksIdBodyScheduleType0  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_1 import PatchV1TasksIdBodyScheduleType1  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_2 import PatchV1TasksIdBodyScheduleType2  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_schedule_type_3 import PatchV1TasksIdBodyScheduleType3  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_target import PatchV1TasksIdBodyTarget  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_workflow import PatchV1TasksIdBodyWorkflow  # noqa: PLC0415
        from ..models.tags import Tags  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_key(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        key = _parse_key(d.pop("key", UNSET))

        def _parse_schedule(
            data: object,
        ) -> (
            PatchV1TasksIdBodyScheduleType0
            | PatchV1TasksIdBodyScheduleType1
            | PatchV1TasksIdBodyScheduleType2
            | PatchV1TasksIdBodyScheduleType3
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = PatchV1TasksIdBodyScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_1 = PatchV1TasksIdBodyScheduleType1.from_dict(data)

                return schedule_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_2 = PatchV1TasksIdBodyScheduleType2.from_dict(data)

                return schedule_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            schedule_type_3 = PatchV1TasksIdBodyScheduleType3.from_dict(data)

            return schedule_type_3

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        _target = d.pop("target", UNSET)
        target: PatchV1TasksIdBodyTarget | Unset
        if isinstance(_target, Unset):
            target = UNSET
        else:
            target = PatchV1TasksIdBodyTarget.from_dict(_target)

        _priority = d.pop("priority", UNSET)
        priority: PatchV1TasksIdBodyPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = PatchV1TasksIdBodyPriority(_priority)

        _lane = d.pop("lane", UNSET)
        lane: PatchV1TasksIdBodyLane | Unset
        if isinstance(_lane, Unset):
            lane = UNSET
        else:
            lane = PatchV1TasksIdBodyLane(_lane)

        _retry = d.pop("retry", UNSET)
        retry: PatchV1TasksIdBodyRetry | Unset
        if isinstance(_retry, Unset):
            retry = UNSET
        else:
            retry = PatchV1TasksIdBodyRetry.from_dict(_retry)

        _misfire_policy = d.pop("misfirePolicy", UNSET)
        misfire_policy: PatchV1TasksIdBodyMisfirePolicy | Unset
        if isinstance(_misfire_policy, Unset):
            misfire_policy = UNSET
        else:
            misfire_policy = PatchV1TasksIdBodyMisfirePolicy(_misfire_policy)

        _overlap_policy = d.pop("overlapPolicy", UNSET)
        overlap_policy: PatchV1TasksIdBodyOverlapPolicy | Unset
        if isinstance(_overlap_policy, Unset):
            overlap_policy = UNSET
        else:
            overlap_policy = PatchV1TasksIdBodyOverlapPolicy(_overlap_policy)

        def _parse_metadata(data: object) -> None | PatchV1TasksIdBodyMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = PatchV1TasksIdBodyMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PatchV1TasksIdBodyMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_tags(data: object) -> None | Tags | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                tags_type_0 = Tags.from_dict(data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Tags | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))

        jitter_s = d.pop("jitterS", UNSET)

        def _parse_pause_after_failures(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pause_after_failures = _parse_pause_after_failures(d.pop("pauseAfterFailures", UNSET))

        def _parse_callbacks(data: object) -> None | PatchV1TasksIdBodyCallbacksType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                callbacks_type_0 = PatchV1TasksIdBodyCallbacksType0.from_dict(data)

                return callbacks_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PatchV1TasksIdBodyCallbacksType0 | Unset, data)

        callbacks = _parse_callbacks(d.pop("callbacks", UNSET))

        def _parse_flow_control(data: object) -> None | PatchV1TasksIdBodyFlowControlType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                flow_control_type_0 = PatchV1TasksIdBodyFlowControlType0.from_dict(data)

                return flow_control_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PatchV1TasksIdBodyFlowControlType0 | Unset, data)

        flow_control = _parse_flow_control(d.pop("flowControl", UNSET))

        _workflow = d.pop("workflow", UNSET)
        workflow: PatchV1TasksIdBodyWorkflow | Unset
        if isinstance(_workflow, Unset):
            workflow = UNSET
        else:
            workflow = PatchV1TasksIdBodyWorkflow.from_dict(_workflow)

        patch_v1_tasks_id_body = cls(
            name=name,
            key=key,
            schedule=schedule,
            target=target,
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
            workflow=workflow,
        )

        return patch_v1_tasks_id_body
