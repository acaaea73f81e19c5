-- A tenant's live task by id (the primary key; another tenant's task is not found).
-- Parameters: id, tenant_id
-- Returns: TaskRow; zero or one
SELECT id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
       metadata, state, next_fire_at, `partition`, version, created_at, updated_at, jitter_s,
       pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags
  FROM tasks
 WHERE id = ? AND tenant_id = ? AND state <> 'deleted'
