from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.workflow_summary_failure_policy import WorkflowSummaryFailurePolicy
from ..models.workflow_summary_state import WorkflowSummaryState
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.tags import Tags
    from ..models.workflow_summary_metadata import WorkflowSummaryMetadata


T = TypeVar("T", bound="WorkflowSummary")


@_attrs_define
class WorkflowSummary:
    """
    Attributes:
        id (str):
        name (str):
        state (WorkflowSummaryState):
        paused (bool): dispatch is held: nodes that become ready wait
        failure_policy (WorkflowSummaryFailurePolicy):
        node_count (int):
        edge_count (int):
        created_at (str):
        updated_at (str):
        max_parallel (int | Unset):
        deadline_at (str | Unset):
        metadata (WorkflowSummaryMetadata | Unset):
        tags (Tags | Unset): string to string, at most 10; keys 1-64 characters ([A-Za-z0-9][A-Za-z0-9_.-/]*), values
            1-128; copied to every job and run made from it
        finished_at (str | Unset):
    """

    id: str
    name: str
    state: WorkflowSummaryState
    paused: bool
    failure_policy: WorkflowSummaryFailurePolicy
    node_count: int
    edge_count: int
    created_at: str
    updated_at: str
    max_parallel: int | Unset = UNSET
    deadline_at: str | Unset = UNSET
    metadata: WorkflowSummaryMetadata | Unset = UNSET
    tags: Tags | Unset = UNSET
    finished_at: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        state = self.state.value

        paused = self.paused

        failure_policy = self.failure_policy.value

        node_count = self.node_count

        edge_count = self.edge_count

        created_at = self.created_at

        updated_at = self.updated_at

        max_parallel = self.max_parallel

        deadline_at = self.deadline_at

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        finished_at = self.finished_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "state": state,
                "paused": paused,
                "failurePolicy": failure_policy,
                "nodeCount": node_count,
                "edgeCount": edge_count,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )
        if max_parallel is not UNSET:
            field_dict["maxParallel"] = max_parallel
        if deadline_at is not UNSET:
            field_dict["deadlineAt"] = deadline_at
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if tags is not UNSET:
            field_dict["tags"] = tags
        if finished_at is not UNSET:
            field_dict["finishedAt"] = finished_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tags import Tags  # noqa: PLC0415
        from ..models.workflow_summary_metadata import WorkflowSummaryMetadata  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        state = WorkflowSummaryState(d.pop("state"))

        paused = d.pop("paused")

        failure_policy = WorkflowSummaryFailurePolicy(d.pop("failurePolicy"))

        node_count = d.pop("nodeCount")

        edge_count = d.pop("edgeCount")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        max_parallel = d.pop("maxParallel", UNSET)

        deadline_at = d.pop("deadlineAt", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: WorkflowSummaryMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = WorkflowSummaryMetadata.from_dict(_metadata)

        _tags = d.pop("tags", UNSET)
        tags: Tags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = Tags.from_dict(_tags)

        finished_at = d.pop("finishedAt", UNSET)

        workflow_summary = cls(
            id=id,
            name=name,
            state=state,
            paused=paused,
            failure_policy=failure_policy,
            node_count=node_count,
            edge_count=edge_count,
            created_at=created_at,
            updated_at=updated_at,
            max_parallel=max_parallel,
            deadline_at=deadline_at,
            metadata=metadata,
            tags=tags,
            finished_at=finished_at,
        )

        return workflow_summary
