from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_v1_workflows_id_graph_response_200 import GetV1WorkflowsIdGraphResponse200
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/workflows/{id}/graph".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetV1WorkflowsIdGraphResponse200 | None:
    if response.status_code == 200:
        response_200 = GetV1WorkflowsIdGraphResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 412:
        response_412 = Error.from_dict(response.json())

        return response_412

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | GetV1WorkflowsIdGraphResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | GetV1WorkflowsIdGraphResponse200]:
    """A workflow whole: every node and dependency, up to 5000 nodes

     For drawing the DAG (the console does): the workflow, all its nodes in id order (without their
    outputs: /nodes has them) and its dependencies as [parent, child] pairs. A workflow of more than
    5000 nodes or 20000 dependencies answers 412, and so does one of more than 500 nodes once it moved
    to history (which keeps the dependencies of smaller runs only); page through /nodes instead.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetV1WorkflowsIdGraphResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Error | GetV1WorkflowsIdGraphResponse200 | None:
    """A workflow whole: every node and dependency, up to 5000 nodes

     For drawing the DAG (the console does): the workflow, all its nodes in id order (without their
    outputs: /nodes has them) and its dependencies as [parent, child] pairs. A workflow of more than
    5000 nodes or 20000 dependencies answers 412, and so does one of more than 500 nodes once it moved
    to history (which keeps the dependencies of smaller runs only); page through /nodes instead.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetV1WorkflowsIdGraphResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | GetV1WorkflowsIdGraphResponse200]:
    """A workflow whole: every node and dependency, up to 5000 nodes

     For drawing the DAG (the console does): the workflow, all its nodes in id order (without their
    outputs: /nodes has them) and its dependencies as [parent, child] pairs. A workflow of more than
    5000 nodes or 20000 dependencies answers 412, and so does one of more than 500 nodes once it moved
    to history (which keeps the dependencies of smaller runs only); page through /nodes instead.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetV1WorkflowsIdGraphResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Error | GetV1WorkflowsIdGraphResponse200 | None:
    """A workflow whole: every node and dependency, up to 5000 nodes

     For drawing the DAG (the console does): the workflow, all its nodes in id order (without their
    outputs: /nodes has them) and its dependencies as [parent, child] pairs. A workflow of more than
    5000 nodes or 20000 dependencies answers 412, and so does one of more than 500 nodes once it moved
    to history (which keeps the dependencies of smaller runs only); page through /nodes instead.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetV1WorkflowsIdGraphResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
