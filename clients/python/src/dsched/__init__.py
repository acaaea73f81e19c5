"""dsched's Python client: the generated task-api and job-api clients (`dsched.task_api`,
`dsched.job_api`) under a thin layer for credentials, retries, typed errors and page walks
(`DschedClient`), and `verify_webhook` for the endpoints dsched calls. See clients/python/README.md.
"""

from .client import DschedClient
from .errors import (
    ConflictError,
    DschedApiError,
    DschedConfigError,
    DschedError,
    DschedNetworkError,
    ErrorDetail,
    FailedPreconditionError,
    InternalError,
    InvalidArgumentError,
    NotFoundError,
    PageTokenError,
    PermissionDeniedError,
    ResourceExhaustedError,
    UnauthenticatedError,
)
from .webhook import WebhookCall, WebhookVerificationError, verify_webhook

__all__ = [
    "ConflictError",
    "DschedApiError",
    "DschedClient",
    "DschedConfigError",
    "DschedError",
    "DschedNetworkError",
    "ErrorDetail",
    "FailedPreconditionError",
    "InternalError",
    "InvalidArgumentError",
    "NotFoundError",
    "PageTokenError",
    "PermissionDeniedError",
    "ResourceExhaustedError",
    "UnauthenticatedError",
    "WebhookCall",
    "WebhookVerificationError",
    "verify_webhook",
]
