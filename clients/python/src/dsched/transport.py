"""Credentials and retries, as an httpx Auth and transports under the generated clients.

What is retried (the same rules as the TypeScript client, @dsched/client):
- 429 on any call, after `Retry-After` (capped at `max_delay`): both APIs answer 429 before doing
  anything (rate limit, quota), so nothing takes effect twice.
- 502, 503, 504 and network errors only on idempotent calls: GET, HEAD, PUT, DELETE, a POST that
  carries an Idempotency-Key, and the POSTs that change nothing when asked twice (pause, resume,
  backfill, cancel, schedule preview).
Waits grow exponentially from `base_delay` with full jitter. Anything else comes back as it is,
and the client turns it into a typed error.
"""

from __future__ import annotations

import asyncio
import random as _random
import re
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

import httpx

from .errors import DschedConfigError, retry_after_seconds

IDEMPOTENT_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})
IDEMPOTENT_POSTS = tuple(
    re.compile(p)
    for p in (
        r"/v1/tasks/[^/]+/(pause|resume|backfill)$",
        r"/v1/jobs/[^/]+/cancel$",
        r"/v1/workflows/[^/]+/(cancel|pause|resume)$",
        r"/v1/schedules/preview$",
    )
)
RETRIED_STATUSES = frozenset({502, 503, 504})


def is_idempotent(request: httpx.Request) -> bool:
    if request.method in IDEMPOTENT_METHODS:
        return True
    if request.method != "POST":
        return False
    if "idempotency-key" in request.headers:
        return True
    return any(p.search(request.url.path) for p in IDEMPOTENT_POSTS)


@dataclass(frozen=True)
class RetryPolicy:
    #: Retries after the first attempt; 0 turns retrying off.
    retries: int = 4
    #: First backoff step in seconds; doubles per retry.
    base_delay: float = 0.2
    #: Cap of one wait in seconds, Retry-After included.
    max_delay: float = 10.0
    random: Callable[[], float] = _random.random

    def backoff(self, attempt: int) -> float:
        return self.random() * min(self.max_delay, self.base_delay * 2**attempt)

    def wait_after(self, response: httpx.Response, request: httpx.Request, attempt: int) -> float | None:
        """Seconds to wait before asking again, or None when the answer stands."""
        retryable = response.status_code == 429 or (
            response.status_code in RETRIED_STATUSES and is_idempotent(request)
        )
        if not retryable or attempt >= self.retries:
            return None
        after = retry_after_seconds(response.headers.get("retry-after")) or 0.0
        return min(self.max_delay, after) + self.backoff(attempt)

    def wait_after_error(self, request: httpx.Request, attempt: int) -> float | None:
        """Seconds to wait after a network error, or None to raise it."""
        if not is_idempotent(request) or attempt >= self.retries:
            return None
        return self.backoff(attempt)


class DschedAuth(httpx.Auth):
    """The tenant's API key on tenant routes, the admin token on /v1/admin/."""

    def __init__(self, api_key: str | None, admin_token: str | None) -> None:
        self.api_key = api_key
        self.admin_token = admin_token

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        admin = "/v1/admin/" in request.url.path
        token = self.admin_token if admin else self.api_key
        if not token:
            raise (
                DschedConfigError("admin_token", "operator routes need the admin token (DSCHED_ADMIN_TOKEN)")
                if admin
                else DschedConfigError("api_key", "tenant routes need an API key (DSCHED_KEY)")
            )
        request.headers["Authorization"] = f"Bearer {token}"
        yield request


class RetryTransport(httpx.BaseTransport):
    def __init__(
        self,
        policy: RetryPolicy,
        inner: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.policy = policy
        self.inner = inner or httpx.HTTPTransport()
        self.sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        attempt = 0
        while True:
            try:
                response = self.inner.handle_request(request)
            except httpx.TransportError:
                wait = self.policy.wait_after_error(request, attempt)
                if wait is None:
                    raise
            else:
                wait = self.policy.wait_after(response, request, attempt)
                if wait is None:
                    return response
                response.close()
            self.sleep(wait)
            attempt += 1

    def close(self) -> None:
        self.inner.close()


class AsyncRetryTransport(httpx.AsyncBaseTransport):
    def __init__(self, policy: RetryPolicy, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.policy = policy
        self.inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        attempt = 0
        while True:
            try:
                response = await self.inner.handle_async_request(request)
            except httpx.TransportError:
                wait = self.policy.wait_after_error(request, attempt)
                if wait is None:
                    raise
            else:
                wait = self.policy.wait_after(response, request, attempt)
                if wait is None:
                    return response
                await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1

    async def aclose(self) -> None:
        await self.inner.aclose()
