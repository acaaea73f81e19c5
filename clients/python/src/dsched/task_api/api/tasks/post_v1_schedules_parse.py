from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.post_v1_schedules_parse_body import PostV1SchedulesParseBody
from ...models.schedule_parse import ScheduleParse
from ...types import Response


def _get_kwargs(
    *,
    body: PostV1SchedulesParseBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/schedules/parse",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | ScheduleParse | None:
    if response.status_code == 200:
        response_200 = ScheduleParse.from_dict(response.json())

        return response_200

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
) -> Response[Error | ScheduleParse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostV1SchedulesParseBody,
) -> Response[Error | ScheduleParse]:
    """Read a schedule in words: the schedule it gives, its sentence and next fire times

     Recurrences ("every weekday at 9am", "on the last day of every month at 23:00") become cron or
    interval schedules, one-off times ("in 3 hours", "tomorrow at 5pm") once schedules. A phrase is
    understood exactly or refused: the 400 names `text` and the word not understood. Nothing is stored.

    Args:
        body (PostV1SchedulesParseBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ScheduleParse]
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
    body: PostV1SchedulesParseBody,
) -> Error | ScheduleParse | None:
    """Read a schedule in words: the schedule it gives, its sentence and next fire times

     Recurrences ("every weekday at 9am", "on the last day of every month at 23:00") become cron or
    interval schedules, one-off times ("in 3 hours", "tomorrow at 5pm") once schedules. A phrase is
    understood exactly or refused: the 400 names `text` and the word not understood. Nothing is stored.

    Args:
        body (PostV1SchedulesParseBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ScheduleParse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostV1SchedulesParseBody,
) -> Response[Error | ScheduleParse]:
    """Read a schedule in words: the schedule it gives, its sentence and next fire times

     Recurrences ("every weekday at 9am", "on the last day of every month at 23:00") become cron or
    interval schedules, one-off times ("in 3 hours", "tomorrow at 5pm") once schedules. A phrase is
    understood exactly or refused: the 400 names `text` and the word not understood. Nothing is stored.

    Args:
        body (PostV1SchedulesParseBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ScheduleParse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PostV1SchedulesParseBody,
) -> Error | ScheduleParse | None:
    """Read a schedule in words: the schedule it gives, its sentence and next fire times

     Recurrences ("every weekday at 9am", "on the last day of every month at 23:00") become cron or
    interval schedules, one-off times ("in 3 hours", "tomorrow at 5pm") once schedules. A phrase is
    understood exactly or refused: the 400 names `text` and the word not understood. Nothing is stored.

    Args:
        body (PostV1SchedulesParseBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ScheduleParse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
