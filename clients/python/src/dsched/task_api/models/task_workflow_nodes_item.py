from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.task_workflow_nodes_item_inputs import TaskWorkflowNodesItemInputs
from ..models.task_workflow_nodes_item_kind import TaskWorkflowNodesItemKind
from ..models.task_workflow_nodes_item_priority import TaskWorkflowNodesItemPriority
from ..models.task_workflow_nodes_item_trigger import TaskWorkflowNodesItemTrigger
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.task_workflow_nodes_item_flow_control import TaskWorkflowNodesItemFlowControl
    from ..models.task_workflow_nodes_item_map import TaskWorkflowNodesItemMap
    from ..models.task_workflow_nodes_item_retry import TaskWorkflowNodesItemRetry
    from ..models.task_workflow_nodes_item_sleep import TaskWorkflowNodesItemSleep
    from ..models.task_workflow_nodes_item_target import TaskWorkflowNodesItemTarget
    from ..models.task_workflow_nodes_item_wait import TaskWorkflowNodesItemWait


T = TypeVar("T", bound="TaskWorkflowNodesItem")


@_attrs_define
class TaskWorkflowNodesItem:
    """
    Attributes:
        id (str):
        kind (TaskWorkflowNodesItemKind): `call` its target; `sleep` (no call) until its time; `wait` for a signal, up
            to `wait.timeoutS`; `map`: one call of `map.target` per item of a parent's output (items `<id>~<index>`)
            Default: TaskWorkflowNodesItemKind.CALL.
        depends_on (list[str]):
        retry (TaskWorkflowNodesItemRetry):
        priority (TaskWorkflowNodesItemPriority):  Default: TaskWorkflowNodesItemPriority.NORMAL.
        trigger (TaskWorkflowNodesItemTrigger):  Default: TaskWorkflowNodesItemTrigger.ALL_SUCCESS.
        inputs (TaskWorkflowNodesItemInputs): `parents`: the node is called with `{"parents": {nodeId: output}, "body":
            <its body>}`, or, when its parents do not fit in one request, `{"parentsUrl", "parentCount", "body"}` (a paged
            list) Default: TaskWorkflowNodesItemInputs.NONE.
        target (TaskWorkflowNodesItemTarget | Unset): required for a `call` node
        sleep (TaskWorkflowNodesItemSleep | Unset): required for a `sleep` node
        wait (TaskWorkflowNodesItemWait | Unset): required for a `wait` node
        map_ (TaskWorkflowNodesItemMap | Unset): required for a `map` node
        flow_control (TaskWorkflowNodesItemFlowControl | Unset): flow control per key (docs/flow-control.md): over-limit
            calls wait, they do not fail
    """

    id: str
    depends_on: list[str]
    retry: TaskWorkflowNodesItemRetry
    kind: TaskWorkflowNodesItemKind = TaskWorkflowNodesItemKind.CALL
    priority: TaskWorkflowNodesItemPriority = TaskWorkflowNodesItemPriority.NORMAL
    trigger: TaskWorkflowNodesItemTrigger = TaskWorkflowNodesItemTrigger.ALL_SUCCESS
    inputs: TaskWorkflowNodesItemInputs = TaskWorkflowNodesItemInputs.NONE
    target: TaskWorkflowNodesItemTarget | Unset = UNSET
    sleep: TaskWorkflowNodesItemSleep | Unset = UNSET
    wait: TaskWorkflowNodesItemWait | Unset = UNSET
    map_: TaskWorkflowNodesItemMap | Unset = UNSET
    flow_control: TaskWorkflowNodesItemFlowControl | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        depends_on = self.depends_on

        retry = self.retry.to_dict()

        priority = self.priority.value

        trigger = self.trigger.value

        inputs = self.inputs.value

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

        flow_control: dict[str, Any] | Unset = UNSET
        if not isinstance(self.flow_control, Unset):
            flow_control = self.flow_control.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "dependsOn": depends_on,
                "retry": retry,
                "priority": priority,
                "trigger": trigger,
                "inputs": inputs,
            }
        )
        if target is not UNSET:
            field_dict["target"] = target
        if sleep is not UNSET:
            field_dict["sleep"] = sleep
        if wait is not UNSET:
            field_dict["wait"] = wait
        if map_ is not UNSET:
            field_dict["map"] = map_
        if flow_control is not UNSET:
            field_dict["flowControl"] = flow_control

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.task_workflow_nodes_item_flow_control import TaskWorkflowNodesItemFlowControl  # noqa: PLC0415
        from ..models.task_workflow_nodes_item_map import TaskWorkflowNodesItemMap  # noqa: PLC0415
        from ..models.task_workflow_nodes_item_retry import TaskWorkflowNodesItemRetry  # noqa: PLC0415
        from ..models.task_workflow_nodes_item_sleep import TaskWorkflowNodesItemSleep  # noqa: PLC0415
        from ..models.task_workflow_nodes_item_target import TaskWorkflowNodesItemTarget  # noqa: PLC0415
        from ..models.task_workflow_nodes_item_wait import TaskWorkflowNodesItemWait  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        kind = TaskWorkflowNodesItemKind(d.pop("kind"))

        depends_on = cast(list[str], d.pop("dependsOn"))

        retry = TaskWorkflowNodesItemRetry.from_dict(d.pop("retry"))

        priority = TaskWorkflowNodesItemPriority(d.pop("priority"))

        trigger = TaskWorkflowNodesItemTrigger(d.pop("trigger"))

        inputs = TaskWorkflowNodesItemInputs(d.pop("inputs"))

        _target = d.pop("target", UNSET)
        target: TaskWorkflowNodesItemTarget | Unset
        if isinstance(_target, Unset):
            target = UNSET
        else:
            target = TaskWorkflowNodesItemTarget.from_dict(_target)

        _sleep = d.pop("sleep", UNSET)
        sleep: TaskWorkflowNodesItemSleep | Unset
        if isinstance(_sleep, Unset):
            sleep = UNSET
        else:
            sleep = TaskWorkflowNodesItemSleep.from_dict(_sleep)

        _wait = d.pop("wait", UNSET)
        wait: TaskWorkflowNodesItemWait | Unset
        if isinstance(_wait, Unset):
            wait = UNSET
        else:
            wait = TaskWorkflowNodesItemWait.from_dict(_wait)

        _map_ = d.pop("map", UNSET)
        map_: TaskWorkflowNodesItemMap | Unset
        if isinstance(_map_, Unset):
            map_ = UNSET
        else:
            map_ = TaskWorkflowNodesItemMap.from_dict(_map_)

        _flow_control = d.pop("flowControl", UNSET)
        flow_control: TaskWorkflowNodesItemFlowControl | Unset
        if isinstance(_flow_control, Unset):
            flow_control = UNSET
        else:
            flow_control = TaskWorkflowNodesItemFlowControl.from_dict(_flow_control)

        task_workflow_nodes_item = cls(
            id=id,
            kind=kind,
            depends_on=depends_on,
            retry=retry,
            priority=priority,
            trigger=trigger,
            inputs=inputs,
            target=target,
            sleep=sleep,
            wait=wait,
            map_=map_,
            flow_control=flow_control,
        )

        return task_workflow_nodes_item
