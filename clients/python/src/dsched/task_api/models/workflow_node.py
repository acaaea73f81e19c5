from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.workflow_node_inputs import WorkflowNodeInputs
from ..models.workflow_node_state import WorkflowNodeState
from ..types import UNSET, Unset

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
        job_id (str | Unset): the node’s job in job-api, once it was made
        finished_at (str | Unset):
        output (Any | Unset): the response body of its last finished attempt (succeeded or dead), its first
            EXECUTOR_MAX_OUTPUT_BYTES: the JSON it was, or a string
    """

    id: str
    state: WorkflowNodeState
    attempt: int
    trigger: str
    inputs: WorkflowNodeInputs
    job_id: str | Unset = UNSET
    finished_at: str | Unset = UNSET
    output: Any | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        state = self.state.value

        attempt = self.attempt

        trigger = self.trigger

        inputs = self.inputs.value

        job_id = self.job_id

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
        if job_id is not UNSET:
            field_dict["jobId"] = job_id
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at
        if output is not UNSET:
            field_dict["output"] = output

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        state = WorkflowNodeState(d.pop("state"))

        attempt = d.pop("attempt")

        trigger = d.pop("trigger")

        inputs = WorkflowNodeInputs(d.pop("inputs"))

        job_id = d.pop("jobId", UNSET)

        finished_at = d.pop("finishedAt", UNSET)

        output = d.pop("output", UNSET)

        workflow_node = cls(
            id=id,
            state=state,
            attempt=attempt,
            trigger=trigger,
            inputs=inputs,
            job_id=job_id,
            finished_at=finished_at,
            output=output,
        )

        return workflow_node
