from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_workflow_nodes_item_inputs import PatchV1TasksIdBodyWorkflowNodesItemInputs
from ..models.patch_v1_tasks_id_body_workflow_nodes_item_kind import PatchV1TasksIdBodyWorkflowNodesItemKind
from ..models.patch_v1_tasks_id_body_workflow_nodes_item_priority import PatchV1TasksIdBodyWorkflowNodesItemPriority
from ..models.patch_v1_tasks_id_body_workflow_nodes_item_trigger import PatchV1TasksIdBodyWorkflowNodesItemTrigger
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_flow_control import (
        PatchV1TasksIdBodyWorkflowNodesItemFlowControl,
    )
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_map import PatchV1TasksIdBodyWorkflowNodesItemMap
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_retry import PatchV1TasksIdBodyWorkflowNodesItemRetry
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_sleep import PatchV1TasksIdBodyWorkflowNodesItemSleep
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_target import PatchV1TasksIdBodyWorkflowNodesItemTarget
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item_wait import PatchV1TasksIdBodyWorkflowNodesItemWait


T = TypeVar("T", bound="PatchV1TasksIdBodyWorkflowNodesItem")


@_attrs_define
class PatchV1TasksIdBodyWorkflowNodesItem:
    """
    Attributes:
        id (str):
        kind (PatchV1TasksIdBodyWorkflowNodesItemKind | Unset): `call` its target; `sleep` (no call) until its time;
            `wait` for a signal, up to `wait.timeoutS`; `map`: one call of `map.target` per item of a parent's output (items
            `<id>~<index>`) Default: PatchV1TasksIdBodyWorkflowNodesItemKind.CALL.
        target (PatchV1TasksIdBodyWorkflowNodesItemTarget | Unset): required for a `call` node
        sleep (PatchV1TasksIdBodyWorkflowNodesItemSleep | Unset): required for a `sleep` node
        wait (PatchV1TasksIdBodyWorkflowNodesItemWait | Unset): required for a `wait` node
        map_ (PatchV1TasksIdBodyWorkflowNodesItemMap | Unset): required for a `map` node
        depends_on (list[str] | Unset):
        retry (PatchV1TasksIdBodyWorkflowNodesItemRetry | Unset):
        priority (PatchV1TasksIdBodyWorkflowNodesItemPriority | Unset):  Default:
            PatchV1TasksIdBodyWorkflowNodesItemPriority.NORMAL.
        trigger (PatchV1TasksIdBodyWorkflowNodesItemTrigger | Unset):  Default:
            PatchV1TasksIdBodyWorkflowNodesItemTrigger.ALL_SUCCESS.
        inputs (PatchV1TasksIdBodyWorkflowNodesItemInputs | Unset): `parents`: the node is called with `{"parents":
            {nodeId: output}, "body": <its body>}`, or, when its parents do not fit in one request, `{"parentsUrl",
            "parentCount", "body"}` (a paged list) Default: PatchV1TasksIdBodyWorkflowNodesItemInputs.NONE.
        flow_control (PatchV1TasksIdBodyWorkflowNodesItemFlowControl | Unset): flow control per key (docs/flow-
            control.md): over-limit calls wait, they do not fail
    """

    id: str
    kind: PatchV1TasksIdBodyWorkflowNodesItemKind | Unset = PatchV1TasksIdBodyWorkflowNodesItemKind.CALL
    target: PatchV1TasksIdBodyWorkflowNodesItemTarget | Unset = UNSET
    sleep: PatchV1TasksIdBodyWorkflowNodesItemSleep | Unset = UNSET
    wait: PatchV1TasksIdBodyWorkflowNodesItemWait | Unset = UNSET
    map_: PatchV1TasksIdBodyWorkflowNodesItemMap | Unset = UNSET
    depends_on: list[str] | Unset = UNSET
    retry: PatchV1TasksIdBodyWorkflowNodesItemRetry | Unset = UNSET
    priority: PatchV1TasksIdBodyWorkflowNodesItemPriority | Unset = PatchV1TasksIdBodyWorkflowNodesItemPriority.NORMAL
    trigger: PatchV1TasksIdBodyWorkflowNodesItemTrigger | Unset = PatchV1TasksIdBodyWorkflowNodesItemTrigger.ALL_SUCCESS
    inputs: PatchV1TasksIdBodyWorkflowNodesItemInputs | Unset = PatchV1TasksIdBodyWorkflowNodesItemInputs.NONE
    flow_control: PatchV1TasksIdBodyWorkflowNodesItemFlowControl | Unset = UNSET

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
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_flow_control import (
            PatchV1TasksIdBodyWorkflowNodesItemFlowControl,  # noqa: PLC0415
        )
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_map import PatchV1TasksIdBodyWorkflowNodesItemMap  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_retry import PatchV1TasksIdBodyWorkflowNodesItemRetry  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_sleep import PatchV1TasksIdBodyWorkflowNodesItemSleep  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_target import PatchV1TasksIdBodyWorkflowNodesItemTarget  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item_wait import PatchV1TasksIdBodyWorkflowNodesItemWait  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        _kind = d.pop("kind", UNSET)
        kind: PatchV1TasksIdBodyWorkflowNodesItemKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = PatchV1TasksIdBodyWorkflowNodesItemKind(_kind)

        _target = d.pop("target", UNSET)
        target: PatchV1TasksIdBodyWorkflowNodesItemTarget | Unset
        if isinstance(_target, Unset):
            target = UNSET
        else:
            target = PatchV1TasksIdBodyWorkflowNodesItemTarget.from_dict(_target)

        _sleep = d.pop("sleep", UNSET)
        sleep: PatchV1TasksIdBodyWorkflowNodesItemSleep | Unset
        if isinstance(_sleep, Unset):
            sleep = UNSET
        else:
            sleep = PatchV1TasksIdBodyWorkflowNodesItemSleep.from_dict(_sleep)

        _wait = d.pop("wait", UNSET)
        wait: PatchV1TasksIdBodyWorkflowNodesItemWait | Unset
        if isinstance(_wait, Unset):
            wait = UNSET
        else:
            wait = PatchV1TasksIdBodyWorkflowNodesItemWait.from_dict(_wait)

        _map_ = d.pop("map", UNSET)
        map_: PatchV1TasksIdBodyWorkflowNodesItemMap | Unset
        if isinstance(_map_, Unset):
            map_ = UNSET
        else:
            map_ = PatchV1TasksIdBodyWorkflowNodesItemMap.from_dict(_map_)

        depends_on = cast(list[str], d.pop("dependsOn", UNSET))

        _retry = d.pop("retry", UNSET)
        retry: PatchV1TasksIdBodyWorkflowNodesItemRetry | Unset
        if isinstance(_retry, Unset):
            retry = UNSET
        else:
            retry = PatchV1TasksIdBodyWorkflowNodesItemRetry.from_dict(_retry)

        _priority = d.pop("priority", UNSET)
        priority: PatchV1TasksIdBodyWorkflowNodesItemPriority | Unset
        if isinstance(_priority, Unset):
            priority = UNSET
        else:
            priority = PatchV1TasksIdBodyWorkflowNodesItemPriority(_priority)

        _trigger = d.pop("trigger", UNSET)
        trigger: PatchV1TasksIdBodyWorkflowNodesItemTrigger | Unset
        if isinstance(_trigger, Unset):
            trigger = UNSET
        else:
            trigger = PatchV1TasksIdBodyWorkflowNodesItemTrigger(_trigger)

        _inputs = d.pop("inputs", UNSET)
        inputs: PatchV1TasksIdBodyWorkflowNodesItemInputs | Unset
        if isinstance(_inputs, Unset):
            inputs = UNSET
        else:
            inputs = PatchV1TasksIdBodyWorkflowNodesItemInputs(_inputs)

        _flow_control = d.pop("flowControl", UNSET)
        flow_control: PatchV1TasksIdBodyWorkflowNodesItemFlowControl | Unset
        if isinstance(_flow_control, Unset):
            flow_control = UNSET
        else:
            flow_control = PatchV1TasksIdBodyWorkflowNodesItemFlowControl.from_dict(_flow_control)

        patch_v1_tasks_id_body_workflow_nodes_item = cls(
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

        return patch_v1_tasks_id_body_workflow_nodes_item
