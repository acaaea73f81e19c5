from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.apply_result import ApplyResult
from ...models.error import Error
from ...models.post_v1_tasks_apply_body import PostV1TasksApplyBody
from ...types import Response


def _get_kwargs(
    *,
    body: PostV1TasksApplyBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/tasks:apply",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApplyResult | Error | None:
    if response.status_code == 200:
        response_200 = ApplyResult.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApplyResult | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostV1TasksApplyBody,
) -> Response[ApplyResult | Error]:
    """Apply a file of keyed tasks: create, update or leave each by key; prune the rest

     Schedules as code (docs/schedules-as-code.md). Every entry is a POST /v1/tasks body with its `key`.
    In one transaction each key’s task is created, updated field by field (the plan says which fields)
    or left unchanged; with `prune` the tenant’s keyed tasks the list does not name are deleted (never
    one without a key). `dryRun` answers the plan and changes nothing. A body with an error changes
    nothing: the 400 names each entry and field (`tasks.3.schedule.text`, with the key). Applying the
    same list twice changes nothing the second time.

    Args:
        body (PostV1TasksApplyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApplyResult | Error]
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
    body: PostV1TasksApplyBody,
) -> ApplyResult | Error | None:
    """Apply a file of keyed tasks: create, update or leave each by key; prune the rest

     Schedules as code (docs/schedules-as-code.md). Every entry is a POST /v1/tasks body with its `key`.
    In one transaction each key’s task is created, updated field by field (the plan says which fields)
    or left unchanged; with `prune` the tenant’s keyed tasks the list does not name are deleted (never
    one without a key). `dryRun` answers the plan and changes nothing. A body with an error changes
    nothing: the 400 names each entry and field (`tasks.3.schedule.text`, with the key). Applying the
    same list twice changes nothing the second time.

    Args:
        body (PostV1TasksApplyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApplyResult | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostV1TasksApplyBody,
) -> Response[ApplyResult | Error]:
    """Apply a file of keyed tasks: create, update or leave each by key; prune the rest

     Schedules as code (docs/schedules-as-code.md). Every entry is a POST /v1/tasks body with its `key`.
    In one transaction each key’s task is created, updated field by field (the plan says which fields)
    or left unchanged; with `prune` the tenant’s keyed tasks the list does not name are deleted (never
    one without a key). `dryRun` answers the plan and changes nothing. A body with an error changes
    nothing: the 400 names each entry and field (`tasks.3.schedule.text`, with the key). Applying the
    same list twice changes nothing the second time.

    Args:
        body (PostV1TasksApplyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApplyResult | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PostV1TasksApplyBody,
) -> ApplyResult | Error | None:
    """Apply a file of keyed tasks: create, update or leave each by key; prune the rest

     Schedules as code (docs/schedules-as-code.md). Every entry is a POST /v1/tasks body with its `key`.
    In one transaction each key’s task is created, updated field by field (the plan says which fields)
    or left unchanged; with `prune` the tenant’s keyed tasks the list does not name are deleted (never
    one without a key). `dryRun` answers the plan and changes nothing. A body with an error changes
    nothing: the 400 names each entry and field (`tasks.3.schedule.text`, with the key). Applying the
    same list twice changes nothing the second time.

    Args:
        body (PostV1TasksApplyBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApplyResult | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
