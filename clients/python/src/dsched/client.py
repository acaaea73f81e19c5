"""DschedClient: the generated task-api and job-api clients with credentials, retries, typed errors
and page walks.

Every route is a generated module (`dsched.task_api.api.tasks.post_v1_tasks`, named from its
operationId); `call` runs it and gives back the parsed body or raises a typed error. A `body` may be
a plain dict (it is read into the route's model) and a time parameter an RFC 3339 string.
"""

from __future__ import annotations

import os
import types
import typing
from collections.abc import AsyncIterator, Iterator, Mapping
from datetime import datetime
from typing import Any

import attrs
import httpx

from . import job_api as _job_api
from . import task_api as _task_api
from .errors import DschedNetworkError, api_error
from .transport import AsyncRetryTransport, DschedAuth, RetryPolicy, RetryTransport

DEFAULT_TASK_API = "http://127.0.0.1:8080"
DEFAULT_JOB_API = "http://127.0.0.1:8081"
USER_AGENT = "dsched-python/0.1"

Endpoint = types.ModuleType


class DschedClient:
    """Both APIs for one tenant (`api_key`) and/or an operator (`admin_token`).

    `task_api` and `job_api` are the generated `AuthenticatedClient`s, for calling a generated
    module's `sync_detailed` directly; `call`, `pages` and `paginate` (and their `a…` async
    twins) are the usual way in.
    """

    def __init__(
        self,
        task_api: str = DEFAULT_TASK_API,
        job_api: str = DEFAULT_JOB_API,
        api_key: str | None = None,
        admin_token: str | None = None,
        *,
        retries: int = 4,
        base_delay: float = 0.2,
        max_delay: float = 10.0,
        timeout: float = 30.0,
    ) -> None:
        auth = DschedAuth(api_key, admin_token)
        policy = RetryPolicy(retries=retries, base_delay=base_delay, max_delay=max_delay)
        self.task_api = _task_api.AuthenticatedClient(base_url=task_api, token="")
        self.job_api = _job_api.AuthenticatedClient(base_url=job_api, token="")
        for generated, url in ((self.task_api, task_api), (self.job_api, job_api)):
            common: dict[str, Any] = {
                "base_url": url,
                "auth": auth,
                "timeout": timeout,
                "headers": {"User-Agent": USER_AGENT},
            }
            generated.set_httpx_client(httpx.Client(transport=RetryTransport(policy), **common))
            generated.set_async_httpx_client(httpx.AsyncClient(transport=AsyncRetryTransport(policy), **common))

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ, **options: Any) -> DschedClient:
        """The CLI's variables: DSCHED_TASK_API, DSCHED_JOB_API, DSCHED_KEY, DSCHED_ADMIN_TOKEN."""
        return cls(
            task_api=env.get("DSCHED_TASK_API", DEFAULT_TASK_API),
            job_api=env.get("DSCHED_JOB_API", DEFAULT_JOB_API),
            api_key=env.get("DSCHED_KEY"),
            admin_token=env.get("DSCHED_ADMIN_TOKEN"),
            **options,
        )

    def _client_for(self, endpoint: Endpoint) -> Any:
        if endpoint.__name__.startswith(_task_api.__name__ + "."):
            return self.task_api
        if endpoint.__name__.startswith(_job_api.__name__ + "."):
            return self.job_api
        raise TypeError(f"{endpoint.__name__} is not a route of dsched.task_api or dsched.job_api")

    def call(self, endpoint: Endpoint, /, **params: Any) -> Any:
        """Runs one route; the parsed body (None for 204), or a DschedApiError subclass."""
        client = self._client_for(endpoint)
        try:
            response = endpoint.sync_detailed(client=client, **_coerce(endpoint, params))
        except httpx.TransportError as error:
            raise DschedNetworkError(f"{_route(endpoint)}: {error}") from error
        return _result(endpoint, response)

    async def acall(self, endpoint: Endpoint, /, **params: Any) -> Any:
        client = self._client_for(endpoint)
        try:
            response = await endpoint.asyncio_detailed(client=client, **_coerce(endpoint, params))
        except httpx.TransportError as error:
            raise DschedNetworkError(f"{_route(endpoint)}: {error}") from error
        return _result(endpoint, response)

    def pages(self, endpoint: Endpoint, /, **params: Any) -> Iterator[Any]:
        """Every page of a list route, from `page_token` if given. Each page's `next_page_token`
        resumes a walk later (with the same query). A refused token raises PageTokenError: the walk
        never restarts from the first page by itself, which would repeat items."""
        token = params.pop("page_token", None)
        while True:
            page = self.call(endpoint, **params, **({"page_token": token} if token else {}))
            yield page
            token = _next_token(page)
            if not token:
                return

    def paginate(self, endpoint: Endpoint, /, **params: Any) -> Iterator[Any]:
        """Every item of a list route, page after page."""
        for page in self.pages(endpoint, **params):
            yield from _items(page)

    async def apages(self, endpoint: Endpoint, /, **params: Any) -> AsyncIterator[Any]:
        token = params.pop("page_token", None)
        while True:
            page = await self.acall(endpoint, **params, **({"page_token": token} if token else {}))
            yield page
            token = _next_token(page)
            if not token:
                return

    async def apaginate(self, endpoint: Endpoint, /, **params: Any) -> AsyncIterator[Any]:
        async for page in self.apages(endpoint, **params):
            for item in _items(page):
                yield item

    def close(self) -> None:
        self.task_api.get_httpx_client().close()
        self.job_api.get_httpx_client().close()

    async def aclose(self) -> None:
        await self.task_api.get_async_httpx_client().aclose()
        await self.job_api.get_async_httpx_client().aclose()

    def __enter__(self) -> DschedClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> DschedClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _route(endpoint: Endpoint) -> str:
    return endpoint.__name__.rsplit(".", 1)[-1]


def _result(endpoint: Endpoint, response: Any) -> Any:
    if 200 <= response.status_code < 300:
        return response.parsed
    raise api_error(response.status_code, response.content, response.headers, request=_route(endpoint))


def _items(page: Any) -> list[Any]:
    """A page's items: its one list field (`tasks`, `runs`, `jobs`, `nodes`...)."""
    lists = [getattr(page, f.name) for f in attrs.fields(type(page)) if isinstance(getattr(page, f.name), list)]
    if len(lists) != 1:
        raise TypeError(f"{type(page).__name__} is not a page of one list")
    return lists[0]


def _next_token(page: Any) -> str | None:
    token = getattr(page, "next_page_token", None)
    return token if isinstance(token, str) and token else None


def _coerce(endpoint: Endpoint, params: dict[str, Any]) -> dict[str, Any]:
    """A dict body becomes the route's model; an RFC 3339 string a datetime where one is expected."""
    hints = typing.get_type_hints(endpoint.sync_detailed)
    out = dict(params)
    for name, value in params.items():
        wanted = _choices(hints.get(name))
        if isinstance(value, Mapping) and not any(t in (dict, Mapping) for t in wanted):
            out[name] = _model_from(value, wanted, name)
        elif isinstance(value, str) and datetime in wanted:
            out[name] = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return out


def _choices(hint: Any) -> list[Any]:
    if hint is None:
        return []
    args = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else ()
    return [a for arg in args for a in _choices(arg)] if args else [typing.get_origin(hint) or hint]


def _model_from(value: Mapping[str, Any], wanted: list[Any], name: str) -> Any:
    models = [t for t in wanted if hasattr(t, "from_dict")]
    errors: list[str] = []
    for model in models:
        try:
            return model.from_dict(dict(value))
        except (KeyError, TypeError, ValueError) as error:
            errors.append(f"{model.__name__}: {error!r}")
    raise TypeError(f"{name}: not readable as {' or '.join(m.__name__ for m in models) or 'a model'}: {errors}")
