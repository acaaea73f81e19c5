from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.workflow import Workflow
    from ..models.workflow_node import WorkflowNode


T = TypeVar("T", bound="GetV1WorkflowsIdGraphResponse200")


@_attrs_define
class GetV1WorkflowsIdGraphResponse200:
    """
    Attributes:
        workflow (Workflow):
        nodes (list[WorkflowNode]):
        edges (list[list[str]]): [parent node id, child node id]
    """

    workflow: Workflow
    nodes: list[WorkflowNode]
    edges: list[list[str]]

    def to_dict(self) -> dict[str, Any]:
        workflow = self.workflow.to_dict()

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

        edges = []
        for edges_item_data in self.edges:
            edges_item = edges_item_data

            edges.append(edges_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "workflow": workflow,
                "nodes": nodes,
                "edges": edges,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workflow import Workflow  # noqa: PLC0415
        from ..models.workflow_node import WorkflowNode  # noqa: PLC0415

        d = dict(src_dict)
        workflow = Workflow.from_dict(d.pop("workflow"))

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = WorkflowNode.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        edges = []
        _edges = d.pop("edges")
        for edges_item_data in _edges:
            edges_item = cast(list[str], edges_item_data)

            edges.append(edges_item)

        get_v1_workflows_id_graph_response_200 = cls(
            workflow=workflow,
            nodes=nodes,
            edges=edges,
        )

        return get_v1_workflows_id_graph_response_200
