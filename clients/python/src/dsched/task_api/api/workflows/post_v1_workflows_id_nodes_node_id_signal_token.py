from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.workflow_node import WorkflowNode
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    node_id: str,
    token: str,
    *,
    body: Any | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/workflows/{id}/nodes/{node_id}/signal/{token}".format(
            id=quote(str(id), safe=""),
            node_id=quote(str(node_id), safe=""),
            token=quote(str(token), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | WorkflowNode | None:
    if response.status_code == 200:
        response_200 = WorkflowNode.from_dict(response.json())

        return response_200

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: Any | Unset = UNSET,
) -> Response[Error | WorkflowNode]:
    """Signal a wait node through its signal URL (no API key: the token is in the URL)

     The URL is the node’s `signalUrl`. The JSON body, whatever its shape, becomes the node’s output (a
    third-party webhook’s body is kept as it is); no body, no output. Otherwise as the keyed route:
    once, 409 when the node is not waiting; 404 for a token that is not the node’s.

    Args:
        id (str):
        node_id (str):
        token (str):
        body (Any | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WorkflowNode]
    """

    kwargs = _get_kwargs(
        id=id,
        node_id=node_id,
        token=token,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    node_id: str,
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: Any | Unset = UNSET,
) -> Error | WorkflowNode | None:
    """Signal a wait node through its signal URL (no API key: the token is in the URL)

     The URL is the node’s `signalUrl`. The JSON body, whatever its shape, becomes the node’s output (a
    third-party webhook’s body is kept as it is); no body, no output. Otherwise as the keyed route:
    once, 409 when the node is not waiting; 404 for a token that is not the node’s.

    Args:
        id (str):
        node_id (str):
        token (str):
        body (Any | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WorkflowNode
    """

    return sync_detailed(
        id=id,
        node_id=node_id,
        token=token,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    node_id: str,
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: Any | Unset = UNSET,
) -> Response[Error | WorkflowNode]:
    """Signal a wait node through its signal URL (no API key: the token is in the URL)

     The URL is the node’s `signalUrl`. The JSON body, whatever its shape, becomes the node’s output (a
    third-party webhook’s body is kept as it is); no body, no output. Otherwise as the keyed route:
    once, 409 when the node is not waiting; 404 for a token that is not the node’s.

    Args:
        id (str):
        node_id (str):
        token (str):
        body (Any | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WorkflowNode]
    """

    kwargs = _get_kwargs(
        id=id,
        node_id=node_id,
        token=token,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    node_id: str,
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: Any | Unset = UNSET,
) -> Error | WorkflowNode | None:
    """Signal a wait node through its signal URL (no API key: the token is in the URL)

     The URL is the node’s `signalUrl`. The JSON body, whatever its shape, becomes the node’s output (a
    third-party webhook’s body is kept as it is); no body, no output. Otherwise as the keyed route:
    once, 409 when the node is not waiting; 404 for a token that is not the node’s.

    Args:
        id (str):
        node_id (str):
        token (str):
        body (Any | Unset):

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
            token=token,
            client=client,
            body=body,
        )
    ).parsed
