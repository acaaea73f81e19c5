-- Full job rows by id, for history and for job-api.
-- Parameters: ids (list)
-- Returns: rows of (id, tenant_id, task_id, occurrence, kind, workflow_id, node_id, scheduled_for, priority, lane, state, attempt, max_attempts, attempt_group, run_at, claimed_by, claimed_at, lease_expires_at, deadline_at, cancel_requested, target, last_status, last_error, output, progress, started_at, finished_at, created_at, updated_at, trace_context, tags)
SELECT id, tenant_id, task_id, occurrence, kind, workflow_id, node_id, scheduled_for, priority, lane,
       state, attempt, max_attempts, attempt_group, run_at, claimed_by, claimed_at, lease_expires_at, deadline_at,
       cancel_requested,
       target, last_status, last_error, output, progress, started_at, finished_at, created_at, updated_at,
       trace_context, tags
  FROM jobs
 WHERE id IN (?)
