from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

from ..models.patch_v1_tasks_id_body_workflow_failure_policy import PatchV1TasksIdBodyWorkflowFailurePolicy
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_v1_tasks_id_body_workflow_metadata import PatchV1TasksIdBodyWorkflowMetadata
    from ..models.patch_v1_tasks_id_body_workflow_nodes_item import PatchV1TasksIdBodyWorkflowNodesItem
    from ..models.tags import Tags


T = TypeVar("T", bound="PatchV1TasksIdBodyWorkflow")


@_attrs_define
class PatchV1TasksIdBodyWorkflow:
    """a workflow task’s new workflow (occurrences not started yet run the new one)

    Attributes:
        name (str):
        nodes (list[PatchV1TasksIdBodyWorkflowNodesItem]):
        failure_policy (PatchV1TasksIdBodyWorkflowFailurePolicy | Unset):  Default:
            PatchV1TasksIdBodyWorkflowFailurePolicy.CONTINUE.
        max_parallel (int | Unset):
        deadline_s (int | Unset):
        metadata (PatchV1TasksIdBodyWorkflowMetadata | Unset):
        tags (Tags | Unset): string to string, at most 10; keys 1-64 characters ([A-Za-z0-9][A-Za-z0-9_.-/]*), values
            1-128; copied to every job and run made from it
    """

    name: str
    nodes: list[PatchV1TasksIdBodyWorkflowNodesItem]
    failure_policy: PatchV1TasksIdBodyWorkflowFailurePolicy | Unset = PatchV1TasksIdBodyWorkflowFailurePolicy.CONTINUE
    max_parallel: int | Unset = UNSET
    deadline_s: int | Unset = UNSET
    metadata: PatchV1TasksIdBodyWorkflowMetadata | Unset = UNSET
    tags: Tags | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        failure_policy: str | Unset = UNSET
        if not isinstance(self.failure_policy, Unset):
            failure_policy = self.failure_policy.value

        max_parallel = self.max_parallel

        deadline_s = self.deadline_s

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        tags: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "nodes": nodes,
            }
        )
        if failure_policy is not UNSET:
            field_dict["failurePolicy"] = failure_policy
        if max_parallel is not UNSET:
            field_dict["maxParallel"] = max_parallel
        if deadline_s is not UNSET:
            field_dict["deadlineS"] = deadline_s
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patch_v1_tasks_id_body_workflow_metadata import PatchV1TasksIdBodyWorkflowMetadata  # noqa: PLC0415
        from ..models.patch_v1_tasks_id_body_workflow_nodes_item import PatchV1TasksIdBodyWorkflowNodesItem  # noqa: PLC0415
        from ..models.tags import Tags  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = PatchV1TasksIdBodyWorkflowNodesItem.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        _failure_policy = d.pop("failurePolicy", UNSET)
        failure_policy: PatchV1TasksIdBodyWorkflowFailurePolicy | Unset
        if isinstance(_failure_policy, Unset):
            failure_policy = UNSET
        else:
            failure_policy = PatchV1TasksIdBodyWorkflowFailurePolicy(_failure_policy)

        max_parallel = d.pop("maxParallel", UNSET)

        deadline_s = d.pop("deadlineS", UNSET)

        _metadata = d.pop("metadata", UNSET)
        metadata: PatchV1TasksIdBodyWorkflowMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = PatchV1TasksIdBodyWorkflowMetadata.from_dict(_metadata)

        _tags = d.pop("tags", UNSET)
        tags: Tags | Unset
        if isinstance(_tags, Unset):
            tags = UNSET
        else:
            tags = Tags.from_dict(_tags)

        patch_v1_tasks_id_body_workflow = cls(
            name=name,
            nodes=nodes,
            failure_policy=failure_policy,
            max_parallel=max_parallel,
            deadline_s=deadline_s,
            metadata=metadata,
            tags=tags,
        )

        return patch_v1_tasks_id_body_workflow
