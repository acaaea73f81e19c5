-- A new task row; task-changes.ts reserves the tenant's quota first, in a statement of its own
-- (task-quota.ts: the quota is in the global keyspace, the task in its shard).
-- Parameters: row (id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy,
--             overlap_policy, metadata, state, next_fire_at, partition, version, created_at, updated_at,
--             jitter_s, pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags)
-- Returns: affected rows (1)
INSERT INTO tasks (id, tenant_id, name, schedule, target, priority, lane, retry, misfire_policy, overlap_policy,
                   metadata, state, next_fire_at, `partition`, version, created_at, updated_at, jitter_s,
                   pause_after_failures, callbacks, paused_reason, flow_control, workflow, task_key, tags)
VALUES (?)
