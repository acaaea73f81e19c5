"""Contains all the data models used in inputs/outputs"""

from .apply_result import ApplyResult
from .apply_result_plan_item import ApplyResultPlanItem
from .apply_result_plan_item_action import ApplyResultPlanItemAction
from .apply_result_plan_item_changes_item import ApplyResultPlanItemChangesItem
from .calendar import Calendar
from .calendar_on_excluded import CalendarOnExcluded
from .cron_schedule_view import CronScheduleView
from .cron_schedule_view_dst import CronScheduleViewDst
from .cron_schedule_view_dst_repeated import CronScheduleViewDstRepeated
from .cron_schedule_view_dst_skipped import CronScheduleViewDstSkipped
from .error import Error
from .error_error import ErrorError
from .error_error_code import ErrorErrorCode
from .error_error_details_item import ErrorErrorDetailsItem
from .get_v1_operations_response_200 import GetV1OperationsResponse200
from .get_v1_tasks_id_audit_response_200 import GetV1TasksIdAuditResponse200
from .get_v1_tasks_id_audit_response_200_counts import GetV1TasksIdAuditResponse200Counts
from .get_v1_tasks_id_audit_response_200_occurrences_item import GetV1TasksIdAuditResponse200OccurrencesItem
from .get_v1_tasks_id_audit_response_200_occurrences_item_status import (
    GetV1TasksIdAuditResponse200OccurrencesItemStatus,
)
from .get_v1_tasks_response_200 import GetV1TasksResponse200
from .get_v1_tasks_state import GetV1TasksState
from .get_v1_workflows_id_graph_response_200 import GetV1WorkflowsIdGraphResponse200
from .get_v1_workflows_id_nodes_node_id_parents_response_200 import GetV1WorkflowsIdNodesNodeIdParentsResponse200
from .get_v1_workflows_id_nodes_response_200 import GetV1WorkflowsIdNodesResponse200
from .get_v1_workflows_id_nodes_state import GetV1WorkflowsIdNodesState
from .get_v1_workflows_response_200 import GetV1WorkflowsResponse200
from .get_v1_workflows_state import GetV1WorkflowsState
from .interval_schedule_view import IntervalScheduleView
from .occurrence import Occurrence
from .occurrence_calendar import OccurrenceCalendar
from .occurrence_dst import OccurrenceDst
from .occurrence_preview import OccurrencePreview
from .once_schedule_view import OnceScheduleView
from .operation import Operation
from .operation_action import OperationAction
from .operation_filter import OperationFilter
from .operation_filter_state import OperationFilterState
from .operation_filter_view import OperationFilterView
from .operation_filter_view_state import OperationFilterViewState
from .operation_state import OperationState
from .patch_v1_admin_tenants_id_body import PatchV1AdminTenantsIdBody
from .patch_v1_tasks_id_body import PatchV1TasksIdBody
from .patch_v1_tasks_id_body_callbacks_type_0 import PatchV1TasksIdBodyCallbacksType0
from .patch_v1_tasks_id_body_flow_control_type_0 import PatchV1TasksIdBodyFlowControlType0
from .patch_v1_tasks_id_body_lane import PatchV1TasksIdBodyLane
from .patch_v1_tasks_id_body_metadata_type_0 import PatchV1TasksIdBodyMetadataType0
from .patch_v1_tasks_id_body_misfire_policy import PatchV1TasksIdBodyMisfirePolicy
from .patch_v1_tasks_id_body_overlap_policy import PatchV1TasksIdBodyOverlapPolicy
from .patch_v1_tasks_id_body_priority import PatchV1TasksIdBodyPriority
from .patch_v1_tasks_id_body_retry import PatchV1TasksIdBodyRetry
from .patch_v1_tasks_id_body_retry_rules_item import PatchV1TasksIdBodyRetryRulesItem
from .patch_v1_tasks_id_body_retry_rules_item_action import PatchV1TasksIdBodyRetryRulesItemAction
from .patch_v1_tasks_id_body_retry_rules_item_status_type_1 import PatchV1TasksIdBodyRetryRulesItemStatusType1
from .patch_v1_tasks_id_body_schedule_type_0 import PatchV1TasksIdBodyScheduleType0
from .patch_v1_tasks_id_body_schedule_type_1 import PatchV1TasksIdBodyScheduleType1
from .patch_v1_tasks_id_body_schedule_type_1_dst import PatchV1TasksIdBodyScheduleType1Dst
from .patch_v1_tasks_id_body_schedule_type_1_dst_repeated import PatchV1TasksIdBodyScheduleType1DstRepeated
from .patch_v1_tasks_id_body_schedule_type_1_dst_skipped import PatchV1TasksIdBodyScheduleType1DstSkipped
from .patch_v1_tasks_id_body_schedule_type_2 import PatchV1TasksIdBodyScheduleType2
from .patch_v1_tasks_id_body_schedule_type_3 import PatchV1TasksIdBodyScheduleType3
from .patch_v1_tasks_id_body_target import PatchV1TasksIdBodyTarget
from .patch_v1_tasks_id_body_target_headers import PatchV1TasksIdBodyTargetHeaders
from .patch_v1_tasks_id_body_target_method import PatchV1TasksIdBodyTargetMethod
from .patch_v1_tasks_id_body_workflow import PatchV1TasksIdBodyWorkflow
from .patch_v1_tasks_id_body_workflow_failure_policy import PatchV1TasksIdBodyWorkflowFailurePolicy
from .patch_v1_tasks_id_body_workflow_metadata import PatchV1TasksIdBodyWorkflowMetadata
from .patch_v1_tasks_id_body_workflow_nodes_item import PatchV1TasksIdBodyWorkflowNodesItem
from .patch_v1_tasks_id_body_workflow_nodes_item_flow_control import PatchV1TasksIdBodyWorkflowNodesItemFlowControl
from .patch_v1_tasks_id_body_workflow_nodes_item_inputs import PatchV1TasksIdBodyWorkflowNodesItemInputs
from .patch_v1_tasks_id_body_workflow_nodes_item_kind import PatchV1TasksIdBodyWorkflowNodesItemKind
from .patch_v1_tasks_id_body_workflow_nodes_item_map import PatchV1TasksIdBodyWorkflowNodesItemMap
from .patch_v1_tasks_id_body_workflow_nodes_item_map_target import PatchV1TasksIdBodyWorkflowNodesItemMapTarget
from .patch_v1_tasks_id_body_workflow_nodes_item_map_target_headers import (
    PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders,
)
from .patch_v1_tasks_id_body_workflow_nodes_item_map_target_method import (
    PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod,
)
from .patch_v1_tasks_id_body_workflow_nodes_item_priority import PatchV1TasksIdBodyWorkflowNodesItemPriority
from .patch_v1_tasks_id_body_workflow_nodes_item_retry import PatchV1TasksIdBodyWorkflowNodesItemRetry
from .patch_v1_tasks_id_body_workflow_nodes_item_retry_rules_item import (
    PatchV1TasksIdBodyWorkflowNodesItemRetryRulesItem,
)
from .patch_v1_tasks_id_body_workflow_nodes_item_retry_rules_item_action import (
    PatchV1TasksIdBodyWorkflowNodesItemRetryRulesItemAction,
)
from .patch_v1_tasks_id_body_workflow_nodes_item_retry_rules_item_status_type_1 import (
    PatchV1TasksIdBodyWorkflowNodesItemRetryRulesItemStatusType1,
)
from .patch_v1_tasks_id_body_workflow_nodes_item_sleep import PatchV1TasksIdBodyWorkflowNodesItemSleep
from .patch_v1_tasks_id_body_workflow_nodes_item_target import PatchV1TasksIdBodyWorkflowNodesItemTarget
from .patch_v1_tasks_id_body_workflow_nodes_item_target_headers import PatchV1TasksIdBodyWorkflowNodesItemTargetHeaders
from .patch_v1_tasks_id_body_workflow_nodes_item_target_method import PatchV1TasksIdBodyWorkflowNodesItemTargetMethod
from .patch_v1_tasks_id_body_workflow_nodes_item_trigger import PatchV1TasksIdBodyWorkflowNodesItemTrigger
from .patch_v1_tasks_id_body_workflow_nodes_item_wait import PatchV1TasksIdBodyWorkflowNodesItemWait
from .patch_v1_tasks_id_body_workflow_nodes_item_wait_on_timeout import PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout
from .post_v1_admin_tenants_body import PostV1AdminTenantsBody
from .post_v1_admin_tenants_id_keys_response_201 import PostV1AdminTenantsIdKeysResponse201
from .post_v1_admin_tenants_response_201 import PostV1AdminTenantsResponse201
from .post_v1_operations_body import PostV1OperationsBody
from .post_v1_operations_body_action import PostV1OperationsBodyAction
from .post_v1_operations_response_200 import PostV1OperationsResponse200
from .post_v1_schedules_parse_body import PostV1SchedulesParseBody
from .post_v1_schedules_preview_body import PostV1SchedulesPreviewBody
from .post_v1_schedules_preview_body_schedule_type_0 import PostV1SchedulesPreviewBodyScheduleType0
from .post_v1_schedules_preview_body_schedule_type_1 import PostV1SchedulesPreviewBodyScheduleType1
from .post_v1_schedules_preview_body_schedule_type_1_dst import PostV1SchedulesPreviewBodyScheduleType1Dst
from .post_v1_schedules_preview_body_schedule_type_1_dst_repeated import (
    PostV1SchedulesPreviewBodyScheduleType1DstRepeated,
)
from .post_v1_schedules_preview_body_schedule_type_1_dst_skipped import (
    PostV1SchedulesPreviewBodyScheduleType1DstSkipped,
)
from .post_v1_schedules_preview_body_schedule_type_2 import PostV1SchedulesPreviewBodyScheduleType2
from .post_v1_schedules_preview_body_schedule_type_3 import PostV1SchedulesPreviewBodyScheduleType3
from .post_v1_tasks_apply_body import PostV1TasksApplyBody
from .post_v1_tasks_apply_body_tasks_item import PostV1TasksApplyBodyTasksItem
from .post_v1_tasks_apply_body_tasks_item_callbacks import PostV1TasksApplyBodyTasksItemCallbacks
from .post_v1_tasks_apply_body_tasks_item_flow_control import PostV1TasksApplyBodyTasksItemFlowControl
from .post_v1_tasks_apply_body_tasks_item_lane import PostV1TasksApplyBodyTasksItemLane
from .post_v1_tasks_apply_body_tasks_item_metadata import PostV1TasksApplyBodyTasksItemMetadata
from .post_v1_tasks_apply_body_tasks_item_misfire_policy import PostV1TasksApplyBodyTasksItemMisfirePolicy
from .post_v1_tasks_apply_body_tasks_item_overlap_policy import PostV1TasksApplyBodyTasksItemOverlapPolicy
from .post_v1_tasks_apply_body_tasks_item_priority import PostV1TasksApplyBodyTasksItemPriority
from .post_v1_tasks_apply_body_tasks_item_retry import PostV1TasksApplyBodyTasksItemRetry
from .post_v1_tasks_apply_body_tasks_item_retry_rules_item import PostV1TasksApplyBodyTasksItemRetryRulesItem
from .post_v1_tasks_apply_body_tasks_item_retry_rules_item_action import (
    PostV1TasksApplyBodyTasksItemRetryRulesItemAction,
)
from .post_v1_tasks_apply_body_tasks_item_retry_rules_item_status_type_1 import (
    PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1,
)
from .post_v1_tasks_apply_body_tasks_item_schedule_type_0 import PostV1TasksApplyBodyTasksItemScheduleType0
from .post_v1_tasks_apply_body_tasks_item_schedule_type_1 import PostV1TasksApplyBodyTasksItemScheduleType1
from .post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst import PostV1TasksApplyBodyTasksItemScheduleType1Dst
from .post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst_repeated import (
    PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated,
)
from .post_v1_tasks_apply_body_tasks_item_schedule_type_1_dst_skipped import (
    PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped,
)
from .post_v1_tasks_apply_body_tasks_item_schedule_type_2 import PostV1TasksApplyBodyTasksItemScheduleType2
from .post_v1_tasks_apply_body_tasks_item_schedule_type_3 import PostV1TasksApplyBodyTasksItemScheduleType3
from .post_v1_tasks_apply_body_tasks_item_target import PostV1TasksApplyBodyTasksItemTarget
from .post_v1_tasks_apply_body_tasks_item_target_headers import PostV1TasksApplyBodyTasksItemTargetHeaders
from .post_v1_tasks_apply_body_tasks_item_target_method import PostV1TasksApplyBodyTasksItemTargetMethod
from .post_v1_tasks_apply_body_tasks_item_workflow import PostV1TasksApplyBodyTasksItemWorkflow
from .post_v1_tasks_apply_body_tasks_item_workflow_failure_policy import (
    PostV1TasksApplyBodyTasksItemWorkflowFailurePolicy,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_metadata import PostV1TasksApplyBodyTasksItemWorkflowMetadata
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item import PostV1TasksApplyBodyTasksItemWorkflowNodesItem
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_flow_control import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_inputs import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_kind import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_map import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_map_target import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemMapTarget,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_map_target_headers import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemMapTargetHeaders,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_map_target_method import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemMapTargetMethod,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_priority import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_retry import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_retry_rules_item import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItem,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_retry_rules_item_action import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItemAction,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_retry_rules_item_status_type_1 import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItemStatusType1,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_sleep import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_target import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_target_headers import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemTargetHeaders,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_target_method import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemTargetMethod,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_trigger import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_wait import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait,
)
from .post_v1_tasks_apply_body_tasks_item_workflow_nodes_item_wait_on_timeout import (
    PostV1TasksApplyBodyTasksItemWorkflowNodesItemWaitOnTimeout,
)
from .post_v1_tasks_body import PostV1TasksBody
from .post_v1_tasks_body_callbacks import PostV1TasksBodyCallbacks
from .post_v1_tasks_body_flow_control import PostV1TasksBodyFlowControl
from .post_v1_tasks_body_lane import PostV1TasksBodyLane
from .post_v1_tasks_body_metadata import PostV1TasksBodyMetadata
from .post_v1_tasks_body_misfire_policy import PostV1TasksBodyMisfirePolicy
from .post_v1_tasks_body_overlap_policy import PostV1TasksBodyOverlapPolicy
from .post_v1_tasks_body_priority import PostV1TasksBodyPriority
from .post_v1_tasks_body_retry import PostV1TasksBodyRetry
from .post_v1_tasks_body_retry_rules_item import PostV1TasksBodyRetryRulesItem
from .post_v1_tasks_body_retry_rules_item_action import PostV1TasksBodyRetryRulesItemAction
from .post_v1_tasks_body_retry_rules_item_status_type_1 import PostV1TasksBodyRetryRulesItemStatusType1
from .post_v1_tasks_body_schedule_type_0 import PostV1TasksBodyScheduleType0
from .post_v1_tasks_body_schedule_type_1 import PostV1TasksBodyScheduleType1
from .post_v1_tasks_body_schedule_type_1_dst import PostV1TasksBodyScheduleType1Dst
from .post_v1_tasks_body_schedule_type_1_dst_repeated import PostV1TasksBodyScheduleType1DstRepeated
from .post_v1_tasks_body_schedule_type_1_dst_skipped import PostV1TasksBodyScheduleType1DstSkipped
from .post_v1_tasks_body_schedule_type_2 import PostV1TasksBodyScheduleType2
from .post_v1_tasks_body_schedule_type_3 import PostV1TasksBodyScheduleType3
from .post_v1_tasks_body_target import PostV1TasksBodyTarget
from .post_v1_tasks_body_target_headers import PostV1TasksBodyTargetHeaders
from .post_v1_tasks_body_target_method import PostV1TasksBodyTargetMethod
from .post_v1_tasks_body_workflow import PostV1TasksBodyWorkflow
from .post_v1_tasks_body_workflow_failure_policy import PostV1TasksBodyWorkflowFailurePolicy
from .post_v1_tasks_body_workflow_metadata import PostV1TasksBodyWorkflowMetadata
from .post_v1_tasks_body_workflow_nodes_item import PostV1TasksBodyWorkflowNodesItem
from .post_v1_tasks_body_workflow_nodes_item_flow_control import PostV1TasksBodyWorkflowNodesItemFlowControl
from .post_v1_tasks_body_workflow_nodes_item_inputs import PostV1TasksBodyWorkflowNodesItemInputs
from .post_v1_tasks_body_workflow_nodes_item_kind import PostV1TasksBodyWorkflowNodesItemKind
from .post_v1_tasks_body_workflow_nodes_item_map import PostV1TasksBodyWorkflowNodesItemMap
from .post_v1_tasks_body_workflow_nodes_item_map_target import PostV1TasksBodyWorkflowNodesItemMapTarget
from .post_v1_tasks_body_workflow_nodes_item_map_target_headers import PostV1TasksBodyWorkflowNodesItemMapTargetHeaders
from .post_v1_tasks_body_workflow_nodes_item_map_target_method import PostV1TasksBodyWorkflowNodesItemMapTargetMethod
from .post_v1_tasks_body_workflow_nodes_item_priority import PostV1TasksBodyWorkflowNodesItemPriority
from .post_v1_tasks_body_workflow_nodes_item_retry import PostV1TasksBodyWorkflowNodesItemRetry
from .post_v1_tasks_body_workflow_nodes_item_retry_rules_item import PostV1TasksBodyWorkflowNodesItemRetryRulesItem
from .post_v1_tasks_body_workflow_nodes_item_retry_rules_item_action import (
    PostV1TasksBodyWorkflowNodesItemRetryRulesItemAction,
)
from .post_v1_tasks_body_workflow_nodes_item_retry_rules_item_status_type_1 import (
    PostV1TasksBodyWorkflowNodesItemRetryRulesItemStatusType1,
)
from .post_v1_tasks_body_workflow_nodes_item_sleep import PostV1TasksBodyWorkflowNodesItemSleep
from .post_v1_tasks_body_workflow_nodes_item_target import PostV1TasksBodyWorkflowNodesItemTarget
from .post_v1_tasks_body_workflow_nodes_item_target_headers import PostV1TasksBodyWorkflowNodesItemTargetHeaders
from .post_v1_tasks_body_workflow_nodes_item_target_method import PostV1TasksBodyWorkflowNodesItemTargetMethod
from .post_v1_tasks_body_workflow_nodes_item_trigger import PostV1TasksBodyWorkflowNodesItemTrigger
from .post_v1_tasks_body_workflow_nodes_item_wait import PostV1TasksBodyWorkflowNodesItemWait
from .post_v1_tasks_body_workflow_nodes_item_wait_on_timeout import PostV1TasksBodyWorkflowNodesItemWaitOnTimeout
from .post_v1_tasks_id_backfill_body import PostV1TasksIdBackfillBody
from .post_v1_tasks_id_backfill_response_202 import PostV1TasksIdBackfillResponse202
from .post_v1_tasks_id_pause_body import PostV1TasksIdPauseBody
from .post_v1_tasks_id_resume_body import PostV1TasksIdResumeBody
from .post_v1_tasks_id_trigger_response_202 import PostV1TasksIdTriggerResponse202
from .post_v1_workflows_body import PostV1WorkflowsBody
from .post_v1_workflows_body_failure_policy import PostV1WorkflowsBodyFailurePolicy
from .post_v1_workflows_body_metadata import PostV1WorkflowsBodyMetadata
from .post_v1_workflows_body_nodes_item import PostV1WorkflowsBodyNodesItem
from .post_v1_workflows_body_nodes_item_flow_control import PostV1WorkflowsBodyNodesItemFlowControl
from .post_v1_workflows_body_nodes_item_inputs import PostV1WorkflowsBodyNodesItemInputs
from .post_v1_workflows_body_nodes_item_kind import PostV1WorkflowsBodyNodesItemKind
from .post_v1_workflows_body_nodes_item_map import PostV1WorkflowsBodyNodesItemMap
from .post_v1_workflows_body_nodes_item_map_target import PostV1WorkflowsBodyNodesItemMapTarget
from .post_v1_workflows_body_nodes_item_map_target_headers import PostV1WorkflowsBodyNodesItemMapTargetHeaders
from .post_v1_workflows_body_nodes_item_map_target_method import PostV1WorkflowsBodyNodesItemMapTargetMethod
from .post_v1_workflows_body_nodes_item_priority import PostV1WorkflowsBodyNodesItemPriority
from .post_v1_workflows_body_nodes_item_retry import PostV1WorkflowsBodyNodesItemRetry
from .post_v1_workflows_body_nodes_item_retry_rules_item import PostV1WorkflowsBodyNodesItemRetryRulesItem
from .post_v1_workflows_body_nodes_item_retry_rules_item_action import PostV1WorkflowsBodyNodesItemRetryRulesItemAction
from .post_v1_workflows_body_nodes_item_retry_rules_item_status_type_1 import (
    PostV1WorkflowsBodyNodesItemRetryRulesItemStatusType1,
)
from .post_v1_workflows_body_nodes_item_sleep import PostV1WorkflowsBodyNodesItemSleep
from .post_v1_workflows_body_nodes_item_target import PostV1WorkflowsBodyNodesItemTarget
from .post_v1_workflows_body_nodes_item_target_headers import PostV1WorkflowsBodyNodesItemTargetHeaders
from .post_v1_workflows_body_nodes_item_target_method import PostV1WorkflowsBodyNodesItemTargetMethod
from .post_v1_workflows_body_nodes_item_trigger import PostV1WorkflowsBodyNodesItemTrigger
from .post_v1_workflows_body_nodes_item_wait import PostV1WorkflowsBodyNodesItemWait
from .post_v1_workflows_body_nodes_item_wait_on_timeout import PostV1WorkflowsBodyNodesItemWaitOnTimeout
from .post_v1_workflows_id_nodes_node_id_signal_body import PostV1WorkflowsIdNodesNodeIdSignalBody
from .schedule_parse import ScheduleParse
from .tags import Tags
from .task import Task
from .task_callbacks import TaskCallbacks
from .task_flow_control import TaskFlowControl
from .task_lane_type_0 import TaskLaneType0
from .task_metadata import TaskMetadata
from .task_misfire_policy import TaskMisfirePolicy
from .task_overlap_policy import TaskOverlapPolicy
from .task_priority import TaskPriority
from .task_retry import TaskRetry
from .task_retry_rules_item import TaskRetryRulesItem
from .task_retry_rules_item_action import TaskRetryRulesItemAction
from .task_retry_rules_item_status_type_1 import TaskRetryRulesItemStatusType1
from .task_state import TaskState
from .task_target import TaskTarget
from .task_target_headers import TaskTargetHeaders
from .task_target_method import TaskTargetMethod
from .task_workflow import TaskWorkflow
from .task_workflow_failure_policy import TaskWorkflowFailurePolicy
from .task_workflow_metadata import TaskWorkflowMetadata
from .task_workflow_nodes_item import TaskWorkflowNodesItem
from .task_workflow_nodes_item_flow_control import TaskWorkflowNodesItemFlowControl
from .task_workflow_nodes_item_inputs import TaskWorkflowNodesItemInputs
from .task_workflow_nodes_item_kind import TaskWorkflowNodesItemKind
from .task_workflow_nodes_item_map import TaskWorkflowNodesItemMap
from .task_workflow_nodes_item_map_target import TaskWorkflowNodesItemMapTarget
from .task_workflow_nodes_item_map_target_headers import TaskWorkflowNodesItemMapTargetHeaders
from .task_workflow_nodes_item_map_target_method import TaskWorkflowNodesItemMapTargetMethod
from .task_workflow_nodes_item_priority import TaskWorkflowNodesItemPriority
from .task_workflow_nodes_item_retry import TaskWorkflowNodesItemRetry
from .task_workflow_nodes_item_retry_rules_item import TaskWorkflowNodesItemRetryRulesItem
from .task_workflow_nodes_item_retry_rules_item_action import TaskWorkflowNodesItemRetryRulesItemAction
from .task_workflow_nodes_item_retry_rules_item_status_type_1 import TaskWorkflowNodesItemRetryRulesItemStatusType1
from .task_workflow_nodes_item_sleep import TaskWorkflowNodesItemSleep
from .task_workflow_nodes_item_target import TaskWorkflowNodesItemTarget
from .task_workflow_nodes_item_target_headers import TaskWorkflowNodesItemTargetHeaders
from .task_workflow_nodes_item_target_method import TaskWorkflowNodesItemTargetMethod
from .task_workflow_nodes_item_trigger import TaskWorkflowNodesItemTrigger
from .task_workflow_nodes_item_wait import TaskWorkflowNodesItemWait
from .task_workflow_nodes_item_wait_on_timeout import TaskWorkflowNodesItemWaitOnTimeout
from .tenant import Tenant
from .workflow import Workflow
from .workflow_failure_policy import WorkflowFailurePolicy
from .workflow_metadata import WorkflowMetadata
from .workflow_node import WorkflowNode
from .workflow_node_inputs import WorkflowNodeInputs
from .workflow_node_kind import WorkflowNodeKind
from .workflow_node_map import WorkflowNodeMap
from .workflow_node_state import WorkflowNodeState
from .workflow_nodes import WorkflowNodes
from .workflow_state import WorkflowState
from .workflow_summary import WorkflowSummary
from .workflow_summary_failure_policy import WorkflowSummaryFailurePolicy
from .workflow_summary_metadata import WorkflowSummaryMetadata
from .workflow_summary_state import WorkflowSummaryState

__all__ = (
    "ApplyResult",
    "ApplyResultPlanItem",
    "ApplyResultPlanItemAction",
    "ApplyResultPlanItemChangesItem",
    "Calendar",
    "CalendarOnExcluded",
    "CronScheduleView",
    "CronScheduleViewDst",
    "CronScheduleViewDstRepeated",
    "CronScheduleViewDstSkipped",
    "Error",
    "ErrorError",
    "ErrorErrorCode",
    "ErrorErrorDetailsItem",
    "GetV1OperationsResponse200",
    "GetV1TasksIdAuditResponse200",
    "GetV1TasksIdAuditResponse200Counts",
    "GetV1TasksIdAuditResponse200OccurrencesItem",
    "GetV1TasksIdAuditResponse200OccurrencesItemStatus",
    "GetV1TasksResponse200",
    "GetV1TasksState",
    "GetV1WorkflowsIdGraphResponse200",
    "GetV1WorkflowsIdNodesNodeIdParentsResponse200",
    "GetV1WorkflowsIdNodesResponse200",
    "GetV1WorkflowsIdNodesState",
    "GetV1WorkflowsResponse200",
    "GetV1WorkflowsState",
    "IntervalScheduleView",
    "Occurrence",
    "OccurrenceCalendar",
    "OccurrenceDst",
    "OccurrencePreview",
    "OnceScheduleView",
    "Operation",
    "OperationAction",
    "OperationFilter",
    "OperationFilterState",
    "OperationFilterView",
    "OperationFilterViewState",
    "OperationState",
    "PatchV1AdminTenantsIdBody",
    "PatchV1TasksIdBody",
    "PatchV1TasksIdBodyCallbacksType0",
    "PatchV1TasksIdBodyFlowControlType0",
    "PatchV1TasksIdBodyLane",
    "PatchV1TasksIdBodyMetadataType0",
    "PatchV1TasksIdBodyMisfirePolicy",
    "PatchV1TasksIdBodyOverlapPolicy",
    "PatchV1TasksIdBodyPriority",
    "PatchV1TasksIdBodyRetry",
    "PatchV1TasksIdBodyRetryRulesItem",
    "PatchV1TasksIdBodyRetryRulesItemAction",
    "PatchV1TasksIdBodyRetryRulesItemStatusType1",
    "PatchV1TasksIdBodyScheduleType0",
    "PatchV1TasksIdBodyScheduleType1",
    "PatchV1TasksIdBodyScheduleType1Dst",
    "PatchV1TasksIdBodyScheduleType1DstRepeated",
    "PatchV1TasksIdBodyScheduleType1DstSkipped",
    "PatchV1TasksIdBodyScheduleType2",
    "PatchV1TasksIdBodyScheduleType3",
    "PatchV1TasksIdBodyTarget",
    "PatchV1TasksIdBodyTargetHeaders",
    "PatchV1TasksIdBodyTargetMethod",
    "PatchV1TasksIdBodyWorkflow",
    "PatchV1TasksIdBodyWorkflowFailurePolicy",
    "PatchV1TasksIdBodyWorkflowMetadata",
    "PatchV1TasksIdBodyWorkflowNodesItem",
    "PatchV1TasksIdBodyWorkflowNodesItemFlowControl",
    "PatchV1TasksIdBodyWorkflowNodesItemInputs",
    "PatchV1TasksIdBodyWorkflowNodesItemKind",
    "PatchV1TasksIdBodyWorkflowNodesItemMap",
    "PatchV1TasksIdBodyWorkflowNodesItemMapTarget",
    "PatchV1TasksIdBodyWorkflowNodesItemMapTargetHeaders",
    "PatchV1TasksIdBodyWorkflowNodesItemMapTargetMethod",
    "PatchV1TasksIdBodyWorkflowNodesItemPriority",
    "PatchV1TasksIdBodyWorkflowNodesItemRetry",
    "PatchV1TasksIdBodyWorkflowNodesItemRetryRulesItem",
    "PatchV1TasksIdBodyWorkflowNodesItemRetryRulesItemAction",
    "PatchV1TasksIdBodyWorkflowNodesItemRetryRulesItemStatusType1",
    "PatchV1TasksIdBodyWorkflowNodesItemSleep",
    "PatchV1TasksIdBodyWorkflowNodesItemTarget",
    "PatchV1TasksIdBodyWorkflowNodesItemTargetHeaders",
    "PatchV1TasksIdBodyWorkflowNodesItemTargetMethod",
    "PatchV1TasksIdBodyWorkflowNodesItemTrigger",
    "PatchV1TasksIdBodyWorkflowNodesItemWait",
    "PatchV1TasksIdBodyWorkflowNodesItemWaitOnTimeout",
    "PostV1AdminTenantsBody",
    "PostV1AdminTenantsIdKeysResponse201",
    "PostV1AdminTenantsResponse201",
    "PostV1OperationsBody",
    "PostV1OperationsBodyAction",
    "PostV1OperationsResponse200",
    "PostV1SchedulesParseBody",
    "PostV1SchedulesPreviewBody",
    "PostV1SchedulesPreviewBodyScheduleType0",
    "PostV1SchedulesPreviewBodyScheduleType1",
    "PostV1SchedulesPreviewBodyScheduleType1Dst",
    "PostV1SchedulesPreviewBodyScheduleType1DstRepeated",
    "PostV1SchedulesPreviewBodyScheduleType1DstSkipped",
    "PostV1SchedulesPreviewBodyScheduleType2",
    "PostV1SchedulesPreviewBodyScheduleType3",
    "PostV1TasksApplyBody",
    "PostV1TasksApplyBodyTasksItem",
    "PostV1TasksApplyBodyTasksItemCallbacks",
    "PostV1TasksApplyBodyTasksItemFlowControl",
    "PostV1TasksApplyBodyTasksItemLane",
    "PostV1TasksApplyBodyTasksItemMetadata",
    "PostV1TasksApplyBodyTasksItemMisfirePolicy",
    "PostV1TasksApplyBodyTasksItemOverlapPolicy",
    "PostV1TasksApplyBodyTasksItemPriority",
    "PostV1TasksApplyBodyTasksItemRetry",
    "PostV1TasksApplyBodyTasksItemRetryRulesItem",
    "PostV1TasksApplyBodyTasksItemRetryRulesItemAction",
    "PostV1TasksApplyBodyTasksItemRetryRulesItemStatusType1",
    "PostV1TasksApplyBodyTasksItemScheduleType0",
    "PostV1TasksApplyBodyTasksItemScheduleType1",
    "PostV1TasksApplyBodyTasksItemScheduleType1Dst",
    "PostV1TasksApplyBodyTasksItemScheduleType1DstRepeated",
    "PostV1TasksApplyBodyTasksItemScheduleType1DstSkipped",
    "PostV1TasksApplyBodyTasksItemScheduleType2",
    "PostV1TasksApplyBodyTasksItemScheduleType3",
    "PostV1TasksApplyBodyTasksItemTarget",
    "PostV1TasksApplyBodyTasksItemTargetHeaders",
    "PostV1TasksApplyBodyTasksItemTargetMethod",
    "PostV1TasksApplyBodyTasksItemWorkflow",
    "PostV1TasksApplyBodyTasksItemWorkflowFailurePolicy",
    "PostV1TasksApplyBodyTasksItemWorkflowMetadata",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItem",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemFlowControl",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemInputs",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemKind",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemMap",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemMapTarget",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemMapTargetHeaders",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemMapTargetMethod",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemPriority",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetry",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItem",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItemAction",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemRetryRulesItemStatusType1",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemSleep",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemTarget",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemTargetHeaders",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemTargetMethod",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemTrigger",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemWait",
    "PostV1TasksApplyBodyTasksItemWorkflowNodesItemWaitOnTimeout",
    "PostV1TasksBody",
    "PostV1TasksBodyCallbacks",
    "PostV1TasksBodyFlowControl",
    "PostV1TasksBodyLane",
    "PostV1TasksBodyMetadata",
    "PostV1TasksBodyMisfirePolicy",
    "PostV1TasksBodyOverlapPolicy",
    "PostV1TasksBodyPriority",
    "PostV1TasksBodyRetry",
    "PostV1TasksBodyRetryRulesItem",
    "PostV1TasksBodyRetryRulesItemAction",
    "PostV1TasksBodyRetryRulesItemStatusType1",
    "PostV1TasksBodyScheduleType0",
    "PostV1TasksBodyScheduleType1",
    "PostV1TasksBodyScheduleType1Dst",
    "PostV1TasksBodyScheduleType1DstRepeated",
    "PostV1TasksBodyScheduleType1DstSkipped",
    "PostV1TasksBodyScheduleType2",
    "PostV1TasksBodyScheduleType3",
    "PostV1TasksBodyTarget",
    "PostV1TasksBodyTargetHeaders",
    "PostV1TasksBodyTargetMethod",
    "PostV1TasksBodyWorkflow",
    "PostV1TasksBodyWorkflowFailurePolicy",
    "PostV1TasksBodyWorkflowMetadata",
    "PostV1TasksBodyWorkflowNodesItem",
    "PostV1TasksBodyWorkflowNodesItemFlowControl",
    "PostV1TasksBodyWorkflowNodesItemInputs",
    "PostV1TasksBodyWorkflowNodesItemKind",
    "PostV1TasksBodyWorkflowNodesItemMap",
    "PostV1TasksBodyWorkflowNodesItemMapTarget",
    "PostV1TasksBodyWorkflowNodesItemMapTargetHeaders",
    "PostV1TasksBodyWorkflowNodesItemMapTargetMethod",
    "PostV1TasksBodyWorkflowNodesItemPriority",
    "PostV1TasksBodyWorkflowNodesItemRetry",
    "PostV1TasksBodyWorkflowNodesItemRetryRulesItem",
    "PostV1TasksBodyWorkflowNodesItemRetryRulesItemAction",
    "PostV1TasksBodyWorkflowNodesItemRetryRulesItemStatusType1",
    "PostV1TasksBodyWorkflowNodesItemSleep",
    "PostV1TasksBodyWorkflowNodesItemTarget",
    "PostV1TasksBodyWorkflowNodesItemTargetHeaders",
    "PostV1TasksBodyWorkflowNodesItemTargetMethod",
    "PostV1TasksBodyWorkflowNodesItemTrigger",
    "PostV1TasksBodyWorkflowNodesItemWait",
    "PostV1TasksBodyWorkflowNodesItemWaitOnTimeout",
    "PostV1TasksIdBackfillBody",
    "PostV1TasksIdBackfillResponse202",
    "PostV1TasksIdPauseBody",
    "PostV1TasksIdResumeBody",
    "PostV1TasksIdTriggerResponse202",
    "PostV1WorkflowsBody",
    "PostV1WorkflowsBodyFailurePolicy",
    "PostV1WorkflowsBodyMetadata",
    "PostV1WorkflowsBodyNodesItem",
    "PostV1WorkflowsBodyNodesItemFlowControl",
    "PostV1WorkflowsBodyNodesItemInputs",
    "PostV1WorkflowsBodyNodesItemKind",
    "PostV1WorkflowsBodyNodesItemMap",
    "PostV1WorkflowsBodyNodesItemMapTarget",
    "PostV1WorkflowsBodyNodesItemMapTargetHeaders",
    "PostV1WorkflowsBodyNodesItemMapTargetMethod",
    "PostV1WorkflowsBodyNodesItemPriority",
    "PostV1WorkflowsBodyNodesItemRetry",
    "PostV1WorkflowsBodyNodesItemRetryRulesItem",
    "PostV1WorkflowsBodyNodesItemRetryRulesItemAction",
    "PostV1WorkflowsBodyNodesItemRetryRulesItemStatusType1",
    "PostV1WorkflowsBodyNodesItemSleep",
    "PostV1WorkflowsBodyNodesItemTarget",
    "PostV1WorkflowsBodyNodesItemTargetHeaders",
    "PostV1WorkflowsBodyNodesItemTargetMethod",
    "PostV1WorkflowsBodyNodesItemTrigger",
    "PostV1WorkflowsBodyNodesItemWait",
    "PostV1WorkflowsBodyNodesItemWaitOnTimeout",
    "PostV1WorkflowsIdNodesNodeIdSignalBody",
    "ScheduleParse",
    "Tags",
    "Task",
    "TaskCallbacks",
    "TaskFlowControl",
    "TaskLaneType0",
    "TaskMetadata",
    "TaskMisfirePolicy",
    "TaskOverlapPolicy",
    "TaskPriority",
    "TaskRetry",
    "TaskRetryRulesItem",
    "TaskRetryRulesItemAction",
    "TaskRetryRulesItemStatusType1",
    "TaskState",
    "TaskTarget",
    "TaskTargetHeaders",
    "TaskTargetMethod",
    "TaskWorkflow",
    "TaskWorkflowFailurePolicy",
    "TaskWorkflowMetadata",
    "TaskWorkflowNodesItem",
    "TaskWorkflowNodesItemFlowControl",
    "TaskWorkflowNodesItemInputs",
    "TaskWorkflowNodesItemKind",
    "TaskWorkflowNodesItemMap",
    "TaskWorkflowNodesItemMapTarget",
    "TaskWorkflowNodesItemMapTargetHeaders",
    "TaskWorkflowNodesItemMapTargetMethod",
    "TaskWorkflowNodesItemPriority",
    "TaskWorkflowNodesItemRetry",
    "TaskWorkflowNodesItemRetryRulesItem",
    "TaskWorkflowNodesItemRetryRulesItemAction",
    "TaskWorkflowNodesItemRetryRulesItemStatusType1",
    "TaskWorkflowNodesItemSleep",
    "TaskWorkflowNodesItemTarget",
    "TaskWorkflowNodesItemTargetHeaders",
    "TaskWorkflowNodesItemTargetMethod",
    "TaskWorkflowNodesItemTrigger",
    "TaskWorkflowNodesItemWait",
    "TaskWorkflowNodesItemWaitOnTimeout",
    "Tenant",
    "Workflow",
    "WorkflowFailurePolicy",
    "WorkflowMetadata",
    "WorkflowNode",
    "WorkflowNodeInputs",
    "WorkflowNodeKind",
    "WorkflowNodeMap",
    "WorkflowNodes",
    "WorkflowNodeState",
    "WorkflowState",
    "WorkflowSummary",
    "WorkflowSummaryFailurePolicy",
    "WorkflowSummaryMetadata",
    "WorkflowSummaryState",
)
