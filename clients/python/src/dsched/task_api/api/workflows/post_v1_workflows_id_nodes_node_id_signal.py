from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.post_v1_workflows_id_nodes_node_id_signal_body import PostV1WorkflowsIdNodesNodeIdSignalBody
from ...models.workflow_node import WorkflowNode
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    node_id: str,
    *,
    body: PostV1WorkflowsIdNodesNodeIdSignalBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/workflows/{id}/nodes/{node_id}/signal".format(
            id=quote(str(id), safe=""),
            node_id=quote(str(node_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | WorkflowNode | None:
    if response.status_code == 200:
        response_200 = WorkflowNode.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | WorkflowNode]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
    body: PostV1WorkflowsIdNodesNodeIdSignalBody | Unset = UNSET,
) -> Response[Error | WorkflowNode]:
    """Signal a wait node: it succeeds with the payload as its output

     Once: a second signal, one before the node waits, or one to an ended run answers 409 and changes
    nothing. A signal and the node’s timeout at the same instant end it once. Audited as the job’s
    attempt (who, when, from which address).

    Args:
        id (str):
        node_id (str):
        body (PostV1WorkflowsIdNodesNodeIdSignalBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WorkflowNode]
    """

    kwargs = _get_kwargs(
        id=id,
        node_id=node_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
    body: PostV1WorkflowsIdNodesNodeIdSignalBody | Unset = UNSET,
) -> Error | WorkflowNode | None:
    """Signal a wait node: it succeeds with the payload as its output

     Once: a second signal, one before the node waits, or one to an ended run answers 409 and changes
    nothing. A signal and the node’s timeout at the same instant end it once. Audited as the job’s
    attempt (who, when, from which address).

    Args:
        id (str):
        node_id (str):
        body (PostV1WorkflowsIdNodesNodeIdSignalBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WorkflowNode
    """

    return sync_detailed(
        id=id,
        node_id=node_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
    body: PostV1WorkflowsIdNodesNodeIdSignalBody | Unset = UNSET,
) -> Response[Error | WorkflowNode]:
    """Signal a wait node: it succeeds with the payload as its output

     Once: a second signal, one before the node waits, or one to an ended run answers 409 and changes
    nothing. A signal and the node’s timeout at the same instant end it once. Audited as the job’s
    attempt (who, when, from which address).

    Args:
        id (str):
        node_id (str):
        body (PostV1WorkflowsIdNodesNodeIdSignalBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WorkflowNode]
    """

    kwargs = _get_kwargs(
        id=id,
        node_id=node_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    node_id: str,
    *,
    client: AuthenticatedClient,
    body: PostV1WorkflowsIdNodesNodeIdSignalBody | Unset = UNSET,
) -> Error | WorkflowNode | None:
    """Signal a wait node: it succeeds with the payload as its output

     Once: a second signal, one before the node waits, or one to an ended run answers 409 and changes
    nothing. A signal and the node’s timeout at the same instant end it once. Audited as the job’s
    attempt (who, when, from which address).

    Args:
        id (str):
        node_id (str):
        body (PostV1WorkflowsIdNodesNodeIdSignalBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WorkflowNode
    """

    return (
        await asyncio_detailed(
            id=id,
            node_id=node_id,
            client=client,
            body=body,
        )
    ).parsed
