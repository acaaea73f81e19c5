from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.workflow_node_inputs import WorkflowNodeInputs
from ..models.workflow_node_kind import WorkflowNodeKind
from ..models.workflow_node_state import WorkflowNodeState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workflow_node_map import WorkflowNodeMap


T = TypeVar("T", bound="WorkflowNode")


@_attrs_define
class WorkflowNode:
    """
    Attributes:
        id (str):
        state (WorkflowNodeState):
        attempt (int): attempts made so far
        trigger (str):
        inputs (WorkflowNodeInputs): `parents`: called with its parents’ outputs beside its body
        kind (WorkflowNodeKind | Unset): `sleep`, `wait` or `map`; absent for a `call` node and a map's item; a run read
            from history keeps it
        job_id (str | Unset): the node’s job in job-api, once it was made
        wake_at (str | Unset): a pending sleep node: when it wakes; a pending wait node: its timeout
        signal_url (str | Unset): a wait node that waits: POST here (no API key: the token is in it) to signal it, once
        map_ (WorkflowNodeMap | Unset): a map node
        finished_at (str | Unset):
        output (Any | Unset): the response body of its last finished attempt (succeeded or dead), its first
            EXECUTOR_MAX_OUTPUT_BYTES: the JSON it was, or a string
    """

    id: str
    state: WorkflowNodeState
    attempt: int
    trigger: str
    inputs: WorkflowNodeInputs
    kind: WorkflowNodeKind | Unset = UNSET
    job_id: str | Unset = UNSET
    wake_at: str | Unset = UNSET
    signal_url: str | Unset = UNSET
    map_: WorkflowNodeMap | Unset = UNSET
    finished_at: str | Unset = UNSET
    output: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        state = self.state.value

        attempt = self.attempt

        trigger = self.trigger

        inputs = self.inputs.value

        kind: str | Unset = UNSET
        if not isinstance(self.kind, Unset):
            kind = self.kind.value

        job_id = self.job_id

        wake_at = self.wake_at

        signal_url = self.signal_url

        map_: dict[str, Any] | Unset = UNSET
        if not isinstance(self.map_, Unset):
            map_ = self.map_.to_dict()

        finished_at = self.finished_at

        output = self.output

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "state": state,
                "attempt": attempt,
                "trigger": trigger,
                "inputs": inputs,
            }
        )
        if kind is not UNSET:
            field_dict["kind"] = kind
        if job_id is not UNSET:
            field_dict["jobId"] = job_id
        if wake_at is not UNSET:
            field_dict["wakeAt"] = wake_at
        if signal_url is not UNSET:
            field_dict["signalUrl"] = signal_url
        if map_ is not UNSET:
            field_dict["map"] = map_
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if output is not UNSET:
            field_dict["output"] = output

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow_node_map import WorkflowNodeMap  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        state = WorkflowNodeState(d.pop("state"))

        attempt = d.pop("attempt")

        trigger = d.pop("trigger")

        inputs = WorkflowNodeInputs(d.pop("inputs"))

        _kind = d.pop("kind", UNSET)
        kind: WorkflowNodeKind | Unset
        if isinstance(_kind, Unset):
            kind = UNSET
        else:
            kind = WorkflowNodeKind(_kind)

        job_id = d.pop("jobId", UNSET)

        wake_at = d.pop("wakeAt", UNSET)

        signal_url = d.pop("signalUrl", UNSET)

        _map_ = d.pop("map", UNSET)
        map_: WorkflowNodeMap | Unset
        if isinstance(_map_, Unset):
            map_ = UNSET
        else:
            map_ = WorkflowNodeMap.from_dict(_map_)

        finished_at = d.pop("finishedAt", UNSET)

        output = d.pop("output", UNSET)

        workflow_node = cls(
            id=id,
            state=state,
            attempt=attempt,
            trigger=trigger,
            inputs=inputs,
            kind=kind,
            job_id=job_id,
            wake_at=wake_at,
            signal_url=signal_url,
            map_=map_,
            finished_at=finished_at,
            output=output,
        )

        return workflow_node
