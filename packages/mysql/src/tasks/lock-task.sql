-- A tenant's live task, locked for a read-modify-write (invariant 9). A scheduler batch holding
-- the row is waited for (it is short); the scheduler skips the row while this holds it.
-- Keyed by the task's partition (its row's: task-changes.ts reads it first), so through vtgate the
-- lock and the change's transaction stay on the task's shard (docs/sharding.md).
-- Parameters: partition, id, tenant_id
-- Returns: TaskRow (id through updated_at, then jitter_s, pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags)
SELECT id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
       metadata, state, next_fire_at, `partition`, version, created_at, updated_at, jitter_s,
       pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags
  FROM tasks
 WHERE `partition` = ? AND id = ? AND tenant_id = ? AND state <> 'deleted'
   FOR UPDATE
