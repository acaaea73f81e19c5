-- A page of a tenant's tasks in id order (time order: ids are UUIDv7), from a keyset cursor.
-- Walks tasks_by_tenant (tenant_id, id). The markers after the state test are replaced by an
-- optional "AND state = ?" and an optional "AND live_key = ?" (one task at most: the optimiser
-- takes tasks_live_key's (tenant_id, live_key) equality then).
-- Parameters: tenant_id, after_id, [state], [key], limit
-- Returns: TaskRow (id through updated_at, then jitter_s, pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags)
SELECT id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
       metadata, state, next_fire_at, `partition`, version, created_at, updated_at, jitter_s,
       pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags
  FROM tasks
 WHERE tenant_id = ? AND id > ? AND state <> 'deleted' %STATE% %KEY%
 ORDER BY id
 LIMIT ?
