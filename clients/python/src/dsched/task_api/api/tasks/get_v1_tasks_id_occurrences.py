import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.occurrence_preview import OccurrencePreview
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    count: int | Unset = 10,
    from_: datetime.datetime | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["count"] = count

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/occurrences".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | OccurrencePreview | None:
    if response.status_code == 200:
        response_200 = OccurrencePreview.from_dict(response.json())

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | OccurrencePreview]:
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
    count: int | Unset = 10,
    from_: datetime.datetime | Unset = UNSET,
) -> Response[Error | OccurrencePreview]:
    """The task’s next fire times, DST policy applied

     Each entry has its instant, wall clock and UTC offset; `dst` marks a time shifted out of a spring-
    forward gap, a wall time that occurs twice, or a `skipped` entry (fires: false) the DST policy
    leaves out. Skipped entries are listed between the fires and not counted.

    Args:
        id (str):
        count (int | Unset):  Default: 10.
        from_ (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OccurrencePreview]
    """

    kwargs = _get_kwargs(
        id=id,
        count=count,
        from_=from_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    count: int | Unset = 10,
    from_: datetime.datetime | Unset = UNSET,
) -> Error | OccurrencePreview | None:
    """The task’s next fire times, DST policy applied

     Each entry has its instant, wall clock and UTC offset; `dst` marks a time shifted out of a spring-
    forward gap, a wall time that occurs twice, or a `skipped` entry (fires: false) the DST policy
    leaves out. Skipped entries are listed between the fires and not counted.

    Args:
        id (str):
        count (int | Unset):  Default: 10.
        from_ (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OccurrencePreview
    """

    return sync_detailed(
        id=id,
        client=client,
        count=count,
        from_=from_,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    count: int | Unset = 10,
    from_: datetime.datetime | Unset = UNSET,
) -> Response[Error | OccurrencePreview]:
    """The task’s next fire times, DST policy applied

     Each entry has its instant, wall clock and UTC offset; `dst` marks a time shifted out of a spring-
    forward gap, a wall time that occurs twice, or a `skipped` entry (fires: false) the DST policy
    leaves out. Skipped entries are listed between the fires and not counted.

    Args:
        id (str):
        count (int | Unset):  Default: 10.
        from_ (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OccurrencePreview]
    """

    kwargs = _get_kwargs(
        id=id,
        count=count,
        from_=from_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    count: int | Unset = 10,
    from_: datetime.datetime | Unset = UNSET,
) -> Error | OccurrencePreview | None:
    """The task’s next fire times, DST policy applied

     Each entry has its instant, wall clock and UTC offset; `dst` marks a time shifted out of a spring-
    forward gap, a wall time that occurs twice, or a `skipped` entry (fires: false) the DST policy
    leaves out. Skipped entries are listed between the fires and not counted.

    Args:
        id (str):
        count (int | Unset):  Default: 10.
        from_ (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OccurrencePreview
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            count=count,
            from_=from_,
        )
    ).parsed
