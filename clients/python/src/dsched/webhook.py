"""Verifying the calls dsched makes to your endpoint (Standard Webhooks, on the `standardwebhooks`
library).

`webhook-signature` holds `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`
with the tenant's signing secret (`whsec_...`, shown once when the tenant was made). Verify the raw
body bytes as received, before parsing them: a re-serialised body does not match. The timestamp
must be within 5 minutes of now either way. `WebhookCall.id` is the job id, also the
`Idempotency-Key`: the same on every attempt of one occurrence, so keep it to apply a call once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError

__all__ = ["WebhookCall", "WebhookVerificationError", "verify_webhook"]


@dataclass(frozen=True)
class WebhookCall:
    #: The job id (`webhook-id`, also `Idempotency-Key`).
    id: str
    #: When dsched signed the call.
    timestamp: datetime
    #: `Dsched-Attempt`, `Dsched-Task-Id`, `Dsched-Scheduled-For` when present.
    attempt: int | None
    task_id: str | None
    scheduled_for: str | None


def _plain(headers: Mapping[str, Any] | Iterable[tuple[str, str]]) -> dict[str, str]:
    """Any framework's headers (Flask's, Starlette's, a dict) as one lower-cased dict."""
    pairs = headers.items() if hasattr(headers, "items") else headers
    return {str(k).lower(): str(v) for k, v in pairs}


def verify_webhook(
    secret: str, headers: Mapping[str, Any] | Iterable[tuple[str, str]], body: bytes | str
) -> WebhookCall:
    """Raises WebhookVerificationError unless the call is signed with `secret` and fresh."""
    plain = _plain(headers)
    Webhook(secret).verify(body, plain, json_parse=False)
    attempt = plain.get("dsched-attempt")
    return WebhookCall(
        id=plain["webhook-id"],
        timestamp=datetime.fromtimestamp(int(plain["webhook-timestamp"]), tz=timezone.utc),
        attempt=int(attempt) if attempt and attempt.isdigit() else None,
        task_id=plain.get("dsched-task-id"),
        scheduled_for=plain.get("dsched-scheduled-for"),
    )
