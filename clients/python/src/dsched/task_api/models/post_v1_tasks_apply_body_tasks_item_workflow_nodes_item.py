from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_inputs import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs,
)
from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_kind import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind,
)
from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_priority import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority,
)
from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_trigger import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_flow_control import (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl,
    )
    from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_map import (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap,
    )
    from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_retry import (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry,
    )
    from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_sleep import (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep,
    )
    from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_target import (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget,
    )
    from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_wait import (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait,
    )


T = TypeVar("T", bound="PostV1TasksApplyBodyTasksItemWorkflowNodesItem")


@_attrs_define
class PostV1TasksApplyBodyTasksItemWorkflowNodesItem:
    """
    Attributes:
        id (str):
        kind (PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind | Unset): `call` its target; `sleep` (no call) until
            its time; `wait` for a signal, up to `wait.timeoutS`; `map`: one call of `map.target` per item of a parent's
            output (items `<id>~<index>`) Default: PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind.CALL.
        target (PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget | Unset): required for a `call` node
        sleep (PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep | Unset): required for a `sleep` node
        wait (PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait | Unset): required for a `wait` node
        map_ (PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap | Unset): required for a `map` node
        depends_on (list[str] | Unset):
        retry (PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry | Unset):
        priority (PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority | Unset):  Default:
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority.NORMAL.
        trigger (PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger | Unset):  Default:
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger.ALL_SUCCESS.
        inputs (PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs | Unset): `parents`: the node is called with
            `{"parents": {nodeId: output}, "body": <its body>}`, or, when its parents do not fit in one request,
            `{"parentsUrl", "parentCount", "body"}` (a paged list) Default:
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs.NONE.
        flow_control (PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl | Unset): flow control per key
            (docs/flow-control.md): over-limit calls wait, they do not fail
    """

    id: str
    kind: PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind | Unset = (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind.CALL
    )
    target: PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget | Unset = UNSET
    sleep: PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep | Unset = UNSET
    wait: PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait | Unset = UNSET
    map_: PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap | Unset = UNSET
    depends_on: list[str] | Unset = UNSET
    retry: PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry | Unset = UNSET
    priority: PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority | Unset = (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority.NORMAL
    )
    trigger: PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger | Unset = (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger.ALL_SUCCESS
    )
    inputs: PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs | Unset = (
        PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs.NONE
    )
    flow_control: PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        target: dict[str, Any] | Unset = UNSET
        if not isinstance(self.target, Unset):
            target = self.target.to_dict()

        sleep: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sleep, Unset):
            sleep = self.sleep.to_dict()

        wait: dict[str, Any] | Unset = UNSET
        if not isinstance(self.wait, Unset):
            wait = self.wait.to_dict()

        map_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.map_, Unset):
            map_ = self.map_.to_dict()

        depends_on: list[str] | Unset = UNSET
        if not isinstance(self.depends_on, Unset):
            depends_on = self.depends_on

        retry: dict[str, Any] | Unset = UNSET
        if not isinstance(self.retry, Unset):
            retry = self.retry.to_dict()

        priority: str | Unset = UNSET
        if not isinstance(self.priority, Unset):
            priority = self.priority.value

        trigger: str | Unset = UNSET
        if not isinstance(self.trigger, Unset):
            trigger = self.trigger.value

        inputs: str | Unset = UNSET
        if not isinstance(self.inputs, Unset):
            inputs = self.inputs.value

        flow_control: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flow_control, Unset):
            flow_control = self.flow_control.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if target is not UNSET:
            field_dict["target"] = target
        if sleep is not UNSET:
            field_dict["sleep"] = sleep
        if wait is not UNSET:
            field_dict["wait"] = wait
        if map_ is not UNSET:
            field_dict["map"] = map_
        if depends_on is not UNSET:
            field_dict["dependsOn"] = depends_on
        if retry is not UNSET:
            field_dict["retry"] = retry
        if priority is not UNSET:
            field_dict["priority"] = priority
        if trigger is not UNSET:
            field_dict["trigger"] = trigger
        if inputs is not UNSET:
            field_dict["inputs"] = inputs
        if flow_control is not UNSET:
            field_dict["flowControl"] = flow_control

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_flow_control import (
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl,  # noqa: PLC0415
        )
        from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_map import (
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap,  # noqa: PLC0415
        )
        from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_retry import (
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry,  # noqa: PLC0415
        )
        from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_sleep import (
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep,  # noqa: PLC0415
        )
        from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_target import (
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget,  # noqa: PLC0415
        )
        from ..models.post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_wait import (
            PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait,  # noqa: PLC0415
        )

        d = dict(src_dict)
        id = d.pop("id")

        _kind = d.pop("kind", UNSET)
        kind: PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind(_kind)

        _target = d.pop("target", UNSET)
        target: PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget | Unset
        if isinstance(_target, Unset):
            target = UNSET
        else:
            target = PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget.from_dict(_target)

        _sleep = d.pop("sleep", UNSET)
        sleep: PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep | Unset
        if isinstance(_sleep, Unset):
            sleep = UNSET
        else:
            sleep = PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep.from_dict(_sleep)

        _wait = d.pop("wait", UNSET)
        wait: PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait | Unset
        if isinstance(_wait, Unset):
            wait = UNSET
        else:
            wait = PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait.from_dict(_wait)

        _map_ = d.pop("map", UNSET)
        map_: PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap | Unset
        if isinstance(_map_, Unset):
            map_ = UNSET
        else:
            map_ = PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap.from_dict(_map_)

        depends_on = cast(list[str], d.pop("dependsOn", UNSET))

        _retry = d.pop("retry", UNSET)
        retry: PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry | Unset
        if isinstance(_retry, Unset):
            retry = UNSET
        else:
            retry = PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry.from_dict(_retry)

        _priority = d.pop("priority", UNSET)
        priority: PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority(_priority)

        _trigger = d.pop("trigger", UNSET)
        trigger: PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger | Unset
        if isinstance(_trigger, Unset):
            trigger = UNSET
        else:
            trigger = PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger(_trigger)

        _inputs = d.pop("inputs", UNSET)
        inputs: PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs | Unset
        if isinstance(_inputs, Unset):
            inputs = UNSET
        else:
            inputs = PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs(_inputs)

        _flow_control = d.pop("flowControl", UNSET)
        flow_control: PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl | Unset
        if isinstance(_flow_control, Unset):
            flow_control = UNSET
        else:
            flow_control = PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl.from_dict(_flow_control)

        post_v1_tasks_apply_body_tasks_item_workflow_nodes_item = cls(
            id=id,
            kind=kind,
            target=target,
            sleep=sleep,
            wait=wait,
            map_=map_,
            depends_on=depends_on,
            retry=retry,
            priority=priority,
            trigger=trigger,
            inputs=inputs,
            flow_control=flow_control,
        )

        return post_v1_tasks_apply_body_tasks_item_workflow_nodes_item
