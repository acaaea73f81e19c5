"""Fixtures of the client's tests: the live APIs (their URLs and the admin token from the
environment), a fresh tenant per test, and the example receiver served on loopback.

test/python/python-client.test.ts starts task-api, job-api, the scheduler and an executor as
processes on their own database and keyspace and runs these tests against them. Against a
platform already running (scripts/up.sh): DSCHED_TEST_TASK_API=http://127.0.0.1:8080
DSCHED_TEST_JOB_API=http://127.0.0.1:8081 DSCHED_TEST_ADMIN_TOKEN=$(cat .stack/run/admin-token)
PYTHONPATH=clients/python/src pytest clients/python/tests
"""

import importlib.util
import os
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from dsched import DschedClient, WebhookCall
from dsched.task_api.api.admin import post_v1_admin_tenants

HERE = Path(__file__).resolve().parent
CLIENT_ROOT = HERE.parent


def _setting(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise pytest.UsageError(
            f"{name} is not set: run these tests through test/python/python-client.test.ts "
            "(pnpm exec vitest run test/python), or see tests/conftest.py"
        )
    return value


@pytest.fixture(scope="session")
def urls() -> dict[str, str]:
    return {"task_api": _setting("DSCHED_TEST_TASK_API"), "job_api": _setting("DSCHED_TEST_JOB_API")}


@pytest.fixture(scope="session")
def admin(urls: dict[str, str]) -> Iterator[DschedClient]:
    with DschedClient(**urls, admin_token=_setting("DSCHED_TEST_ADMIN_TOKEN")) as client:
        yield client


@dataclass
class Tenant:
    id: str
    api_key: str
    signing_secret: str
    client: DschedClient


def make_tenant(admin: DschedClient, urls: dict[str, str], **quotas: object) -> Tenant:
    made = admin.call(post_v1_admin_tenants, body={"name": f"py-{uuid.uuid4().hex[:8]}", **quotas})
    return Tenant(made.id, made.api_key, made.signing_secret, DschedClient(**urls, api_key=made.api_key))


@pytest.fixture
def tenant(admin: DschedClient, urls: dict[str, str]) -> Iterator[Tenant]:
    made = make_tenant(admin, urls)
    yield made
    made.client.close()


@dataclass
class Receiver:
    url: str
    calls: list[tuple[WebhookCall, bytes]] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)


def load_example(name: str):
    spec = importlib.util.spec_from_file_location(name, CLIENT_ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def receiver(tenant: Tenant) -> Iterator[Receiver]:
    """The README's Flask example, served for real on a loopback port, with the tenant's secret."""
    example = load_example("flask_receiver")
    got = Receiver(url="")

    def handle(call: WebhookCall, body: bytes) -> None:
        got.calls.append((call, body))
        got.arrived.set()

    server = make_server("127.0.0.1", 0, example.create_app(tenant.signing_secret, handle), threaded=True)
    got.url = f"http://127.0.0.1:{server.server_port}/dsched"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield got
    server.shutdown()
    thread.join()
