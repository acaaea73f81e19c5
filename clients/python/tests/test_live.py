"""The client against the live APIs: tasks, runs page by page, typed errors, retries, webhooks."""

import asyncio
import base64
import hashlib
import hmac
import json
import time

import httpx
import pytest

from conftest import Receiver, Tenant, make_tenant
from dsched import (
    DschedClient,
    DschedConfigError,
    InvalidArgumentError,
    NotFoundError,
    PageTokenError,
    ResourceExhaustedError,
)
from dsched.job_api.api.history import get_v1_tasks_id_runs
from dsched.job_api.api.jobs import get_v1_jobs_id
from dsched.task_api.api.tasks import get_v1_tasks, get_v1_tasks_id, post_v1_tasks, post_v1_tasks_id_trigger
from dsched.task_api.models import Task

FAR_CRON = {"type": "cron", "expression": "0 9 * * 1-5", "timezone": "Europe/Berlin"}


def create_task(client: DschedClient, url: str = "https://example.com/hook", **extra: object) -> Task:
    return client.call(post_v1_tasks, body={"name": "py", "schedule": FAR_CRON, "target": {"url": url}, **extra})


def test_creates_a_task_and_reads_it_back(tenant: Tenant) -> None:
    task = create_task(tenant.client, metadata={"team": "billing"})
    assert isinstance(task, Task)
    assert task.state.value == "active"
    assert task.next_fire_at is not None
    again = tenant.client.call(get_v1_tasks_id, id=task.id)
    assert again.id == task.id and again.version == 1


def test_reads_a_tasks_runs_page_by_page(tenant: Tenant) -> None:
    task = create_task(tenant.client)
    job_ids = [tenant.client.call(post_v1_tasks_id_trigger, id=task.id).job_id for _ in range(5)]
    pages = list(tenant.client.pages(get_v1_tasks_id_runs, id=task.id, limit=2))
    assert [len(p.runs) for p in pages] == [2, 2, 1]
    walked = [run.id for page in pages for run in page.runs]
    # Newest first, each run once.
    assert walked == list(reversed(job_ids))
    assert [r.id for r in tenant.client.paginate(get_v1_tasks_id_runs, id=task.id, limit=3)] == walked
    # A page's token resumes the walk where it stopped.
    rest = tenant.client.paginate(get_v1_tasks_id_runs, id=task.id, limit=2, page_token=pages[0].next_page_token)
    assert [r.id for r in rest] == walked[2:]


def test_a_time_range_as_strings(tenant: Tenant) -> None:
    task = create_task(tenant.client)
    tenant.client.call(post_v1_tasks_id_trigger, id=task.id)
    runs = list(tenant.client.paginate(get_v1_tasks_id_runs, id=task.id, from_="2000-01-01T00:00:00Z"))
    assert len(runs) == 1
    assert list(tenant.client.paginate(get_v1_tasks_id_runs, id=task.id, to="2000-01-01T00:00:00Z")) == []


def test_a_400_is_a_typed_error_naming_the_field_and_changes_nothing(tenant: Tenant) -> None:
    with pytest.raises(InvalidArgumentError) as caught:
        tenant.client.call(
            post_v1_tasks,
            body={"name": "x", "schedule": {"type": "cron", "expression": "0 0 30 2 *"}, "target": {"url": "https://e.x"}},
        )
    error = caught.value
    assert error.status == 400 and error.code == "invalid_argument"
    assert error.issue_for("schedule.expression")
    assert list(tenant.client.paginate(get_v1_tasks)) == []


def test_another_tenants_task_is_not_found(admin: DschedClient, urls: dict[str, str], tenant: Tenant) -> None:
    other = make_tenant(admin, urls)
    task = create_task(other.client)
    with pytest.raises(NotFoundError) as caught:
        tenant.client.call(get_v1_tasks_id, id=task.id)
    assert caught.value.status == 404
    other.client.close()


def test_a_foreign_page_token_is_refused_not_restarted(tenant: Tenant) -> None:
    task = create_task(tenant.client)
    for _ in range(3):
        tenant.client.call(post_v1_tasks_id_trigger, id=task.id)
    token = next(tenant.client.pages(get_v1_tasks_id_runs, id=task.id, limit=1)).next_page_token
    with pytest.raises(PageTokenError):
        list(tenant.client.pages(get_v1_tasks, page_token=token))


def test_429_is_retried_after_retry_after(admin: DschedClient, urls: dict[str, str]) -> None:
    limited = make_tenant(admin, urls, rateLimitPerSecond=1)
    started = time.monotonic()
    for _ in range(3):
        assert limited.client.call(get_v1_tasks).tasks == []
    # Three requests at one a second: the client waited for the second and the third.
    assert time.monotonic() - started >= 1.0
    impatient = DschedClient(**urls, api_key=limited.api_key, retries=0)
    with pytest.raises(ResourceExhaustedError) as caught:
        for _ in range(3):
            impatient.call(get_v1_tasks)
    assert caught.value.retry_after == 1.0
    assert caught.value.issue_for("rateLimitPerSecond")


def test_a_missing_key_is_a_config_error_before_any_request(urls: dict[str, str]) -> None:
    with pytest.raises(DschedConfigError) as caught:
        DschedClient(**urls).call(get_v1_tasks)
    assert caught.value.setting == "api_key"


def test_async_calls_and_page_walks(tenant: Tenant) -> None:
    async def scenario() -> list[str]:
        task = await tenant.client.acall(post_v1_tasks, body={"name": "a", "schedule": FAR_CRON, "target": {"url": "https://e.x"}})
        for _ in range(3):
            await tenant.client.acall(post_v1_tasks_id_trigger, id=task.id)
        return [run.id async for run in tenant.client.apaginate(get_v1_tasks_id_runs, id=task.id, limit=2)]

    assert len(set(asyncio.run(scenario()))) == 3


def test_a_call_from_dsched_verifies_in_the_example_receiver(tenant: Tenant, receiver: Receiver) -> None:
    task = create_task(tenant.client, target={"url": receiver.url, "body": {"hello": "python"}})
    job_id = tenant.client.call(post_v1_tasks_id_trigger, id=task.id).job_id
    assert receiver.arrived.wait(60), "dsched did not call the receiver within 60 s"
    call, body = receiver.calls[0]
    assert call.id == job_id and call.task_id == task.id and call.attempt == 1
    assert json.loads(body) == {"hello": "python"}
    # The receiver answered 200, so the run succeeded.
    deadline = time.monotonic() + 30
    while tenant.client.call(get_v1_jobs_id, id=job_id).state.value != "succeeded":
        assert time.monotonic() < deadline, "the run did not succeed"
        time.sleep(0.2)


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    key = base64.b64decode(secret.removeprefix("whsec_"))
    digest = hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def test_the_example_receiver_refuses_what_dsched_did_not_sign(tenant: Tenant, receiver: Receiver) -> None:
    body = b'{"hello":"forged"}'
    now = int(time.time())
    wrong = "whsec_" + base64.b64encode(b"k" * 32).decode()
    for headers in (
        {},
        {"webhook-id": "j1", "webhook-timestamp": str(now), "webhook-signature": sign(wrong, "j1", now, body)},
        {"webhook-id": "j1", "webhook-timestamp": str(now - 3600), "webhook-signature": sign(tenant.signing_secret, "j1", now - 3600, body)},
        {"webhook-id": "j1", "webhook-timestamp": str(now), "webhook-signature": sign(tenant.signing_secret, "j1", now, b"{}")},
    ):
        assert httpx.post(receiver.url, content=body, headers=headers).status_code == 401
    signed = {"webhook-id": "j1", "webhook-timestamp": str(now), "webhook-signature": sign(tenant.signing_secret, "j1", now, body)}
    assert httpx.post(receiver.url, content=body, headers=signed).status_code == 200
    assert httpx.post(receiver.url, content=body, headers=signed).status_code == 200
    # Applied once, though received twice.
    assert [c.id for c, _ in receiver.calls] == ["j1"]
