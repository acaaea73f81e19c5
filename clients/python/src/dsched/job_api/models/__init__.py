"""Contains all the data models used in inputs/outputs"""

from .error import Error
from .error_error import ErrorError
from .error_error_code import ErrorErrorCode
from .error_error_details_item import ErrorErrorDetailsItem
from .get_v1_dlq_response_200 import GetV1DlqResponse200
from .get_v1_jobs_response_200 import GetV1JobsResponse200
from .get_v1_jobs_state import GetV1JobsState
from .get_v1_tasks_id_runs_response_200 import GetV1TasksIdRunsResponse200
from .job import Job
from .job_attempts_item import JobAttemptsItem
from .job_output import JobOutput
from .job_priority import JobPriority
from .job_progress import JobProgress
from .job_state import JobState
from .post_v1_dlq_retry_response_200 import PostV1DlqRetryResponse200
from .post_v1_jobs_id_cancel_body import PostV1JobsIdCancelBody
from .post_v1_jobs_id_complete_body_type_0 import PostV1JobsIdCompleteBodyType0
from .post_v1_jobs_id_heartbeat_body import PostV1JobsIdHeartbeatBody
from .post_v1_jobs_id_heartbeat_body_progress import PostV1JobsIdHeartbeatBodyProgress
from .post_v1_jobs_id_heartbeat_response_200 import PostV1JobsIdHeartbeatResponse200
from .tags import Tags

__all__ = (
    "Error",
    "ErrorError",
    "ErrorErrorCode",
    "ErrorErrorDetailsItem",
    "GetV1DlqResponse200",
    "GetV1JobsResponse200",
    "GetV1JobsState",
    "GetV1TasksIdRunsResponse200",
    "Job",
    "JobAttemptsItem",
    "JobOutput",
    "JobPriority",
    "JobProgress",
    "JobState",
    "PostV1DlqRetryResponse200",
    "PostV1JobsIdCancelBody",
    "PostV1JobsIdCompleteBodyType0",
    "PostV1JobsIdHeartbeatBody",
    "PostV1JobsIdHeartbeatBodyProgress",
    "PostV1JobsIdHeartbeatResponse200",
    "Tags",
)
