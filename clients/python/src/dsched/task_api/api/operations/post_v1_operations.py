from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.operation import Operation
from ...models.post_v1_operations_body import PostV1OperationsBody
from ...models.post_v1_operations_response_200 import PostV1OperationsResponse200
from ...types import Response


def _get_kwargs(
    *,
    body: PostV1OperationsBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/operations",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Operation | PostV1OperationsResponse200 | None:
    if response.status_code == 200:
        response_200 = PostV1OperationsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = Operation.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Operation | PostV1OperationsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostV1OperationsBody,
) -> Response[Error | Operation | PostV1OperationsResponse200]:
    """Start a bulk operation: cancel, pause, resume, redrive or retry what a filter matches

     The filter is required (at least one of taskId, tag, from, to): an operation never acts on
    everything. It is counted now (`matched`) and carried out by the reconciler in batches; follow it at
    GET /v1/operations/{id}. With `dryRun: true` it is only counted: nothing is changed or stored.

    Args:
        body (PostV1OperationsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Operation | PostV1OperationsResponse200]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PostV1OperationsBody,
) -> Error | Operation | PostV1OperationsResponse200 | None:
    """Start a bulk operation: cancel, pause, resume, redrive or retry what a filter matches

     The filter is required (at least one of taskId, tag, from, to): an operation never acts on
    everything. It is counted now (`matched`) and carried out by the reconciler in batches; follow it at
    GET /v1/operations/{id}. With `dryRun: true` it is only counted: nothing is changed or stored.

    Args:
        body (PostV1OperationsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Operation | PostV1OperationsResponse200
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostV1OperationsBody,
) -> Response[Error | Operation | PostV1OperationsResponse200]:
    """Start a bulk operation: cancel, pause, resume, redrive or retry what a filter matches

     The filter is required (at least one of taskId, tag, from, to): an operation never acts on
    everything. It is counted now (`matched`) and carried out by the reconciler in batches; follow it at
    GET /v1/operations/{id}. With `dryRun: true` it is only counted: nothing is changed or stored.

    Args:
        body (PostV1OperationsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Operation | PostV1OperationsResponse200]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PostV1OperationsBody,
) -> Error | Operation | PostV1OperationsResponse200 | None:
    """Start a bulk operation: cancel, pause, resume, redrive or retry what a filter matches

     The filter is required (at least one of taskId, tag, from, to): an operation never acts on
    everything. It is counted now (`matched`) and carried out by the reconciler in batches; follow it at
    GET /v1/operations/{id}. With `dryRun: true` it is only counted: nothing is changed or stored.

    Args:
        body (PostV1OperationsBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Operation | PostV1OperationsResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
