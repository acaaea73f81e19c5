-- A tenant's live tasks that have a key, locked for apply's read-modify-write (invariant 9): with
-- prune every keyed task, else the keys the file names. One range of tasks_live_key (tenant_id,
-- live_key); deleted and unkeyed tasks are NULL there, so they are neither read nor locked. The
-- marker is replaced by "" (prune) or "AND live_key IN (?)".
-- Parameters: tenant_id, [keys (list)]
-- Returns: TaskRow (id through updated_at, then jitter_s, pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags)
SELECT id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
       metadata, state, next_fire_at, `partition`, version, created_at, updated_at, jitter_s,
       pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags
  FROM tasks FORCE INDEX (tasks_live_key)
 WHERE tenant_id = ? AND live_key IS NOT NULL %KEYS%
 ORDER BY live_key
   FOR UPDATE
