import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_v1_workflows_response_200 import GetV1WorkflowsResponse200
from ...models.get_v1_workflows_state import GetV1WorkflowsState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    state: GetV1WorkflowsState | Unset = UNSET,
    name: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["name"] = name

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
        "url": "/v1/workflows",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetV1WorkflowsResponse200 | None:
    if response.status_code == 200:
        response_200 = GetV1WorkflowsResponse200.from_dict(response.json())

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

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | GetV1WorkflowsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    state: GetV1WorkflowsState | Unset = UNSET,
    name: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Response[Error | GetV1WorkflowsResponse200]:
    """The tenant’s workflow runs, newest first, live and archived, paged

     Filtered by state, exact name, creation range (default: the last 7 days) and tags (`tag=key:value`,
    repeatable, all must match). Runs archived before tags existed are read by id only.

    Args:
        state (GetV1WorkflowsState | Unset):
        name (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetV1WorkflowsResponse200]
    """

    kwargs = _get_kwargs(
        state=state,
        name=name,
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
    *,
    client: AuthenticatedClient,
    state: GetV1WorkflowsState | Unset = UNSET,
    name: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Error | GetV1WorkflowsResponse200 | None:
    """The tenant’s workflow runs, newest first, live and archived, paged

     Filtered by state, exact name, creation range (default: the last 7 days) and tags (`tag=key:value`,
    repeatable, all must match). Runs archived before tags existed are read by id only.

    Args:
        state (GetV1WorkflowsState | Unset):
        name (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetV1WorkflowsResponse200
    """

    return sync_detailed(
        client=client,
        state=state,
        name=name,
        from_=from_,
        to=to,
        tag=tag,
        limit=limit,
        page_token=page_token,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    state: GetV1WorkflowsState | Unset = UNSET,
    name: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Response[Error | GetV1WorkflowsResponse200]:
    """The tenant’s workflow runs, newest first, live and archived, paged

     Filtered by state, exact name, creation range (default: the last 7 days) and tags (`tag=key:value`,
    repeatable, all must match). Runs archived before tags existed are read by id only.

    Args:
        state (GetV1WorkflowsState | Unset):
        name (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetV1WorkflowsResponse200]
    """

    kwargs = _get_kwargs(
        state=state,
        name=name,
        from_=from_,
        to=to,
        tag=tag,
        limit=limit,
        page_token=page_token,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    state: GetV1WorkflowsState | Unset = UNSET,
    name: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
    tag: list[str] | str | Unset = UNSET,
    limit: int | Unset = 50,
    page_token: str | Unset = UNSET,
) -> Error | GetV1WorkflowsResponse200 | None:
    """The tenant’s workflow runs, newest first, live and archived, paged

     Filtered by state, exact name, creation range (default: the last 7 days) and tags (`tag=key:value`,
    repeatable, all must match). Runs archived before tags existed are read by id only.

    Args:
        state (GetV1WorkflowsState | Unset):
        name (str | Unset):
        from_ (datetime.datetime | Unset):
        to (datetime.datetime | Unset):
        tag (list[str] | str | Unset):
        limit (int | Unset):  Default: 50.
        page_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetV1WorkflowsResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            state=state,
            name=name,
            from_=from_,
            to=to,
            tag=tag,
            limit=limit,
            page_token=page_token,
        )
    ).parsed
