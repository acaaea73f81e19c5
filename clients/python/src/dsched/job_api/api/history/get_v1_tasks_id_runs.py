import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_v1_tasks_id_runs_response_200 import GetV1TasksIdRunsResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    json_tag: list[str] | str | Unset
    if isinstance(tag, Unset):
        json_tag = UNSET
    elif isinstance(tag, list):
        json_tag = tag

    else:
        json_tag = tag
    params["tag"] = json_tag

    params["limit"] = limit

    params["pageToken"] = page_token

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/tasks/{id}/runs".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetV1TasksIdRunsResponse200 | None:
    if response.status_code == 200:
        response_200 = GetV1TasksIdRunsResponse200.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | GetV1TasksIdRunsResponse200]:
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
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Response[Error | GetV1TasksIdRunsResponse200]:
    """A task’s runs in a time range, newest first, live and archived, paged

    Args:
        id (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetV1TasksIdRunsResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        from_=from_,
        to=to,
        tag=tag,
        limit=limit,
        page_token=page_token,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Error | GetV1TasksIdRunsResponse200 | None:
    """A task’s runs in a time range, newest first, live and archived, paged

    Args:
        id (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetV1TasksIdRunsResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
        from_=from_,
        to=to,
        tag=tag,
        limit=limit,
        page_token=page_token,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Response[Error | GetV1TasksIdRunsResponse200]:
    """A task’s runs in a time range, newest first, live and archived, paged

    Args:
        id (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetV1TasksIdRunsResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
        from_=from_,
        to=to,
        tag=tag,
        limit=limit,
        page_token=page_token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Error | GetV1TasksIdRunsResponse200 | None:
    """A task’s runs in a time range, newest first, live and archived, paged

    Args:
        id (str):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetV1TasksIdRunsResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            from_=from_,
            to=to,
            tag=tag,
            limit=limit,
            page_token=page_token,
        )
    ).parsed
