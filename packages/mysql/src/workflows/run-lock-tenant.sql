-- Locks a tenant's run for an operation on it (cancel, pause, resume, retry); another tenant's id
-- matches nothing, like a missing one. Keyed by the run's partition (the one its id names, or its
-- row's for a run stored before the key: workflow-control.ts), so through vtgate the operation's
-- transaction stays on the run's shard (docs/sharding.md).
-- Parameters: partition, id, tenant_id
-- archived_at: set when the run moved to history (nothing may change it any more).
-- Returns: rows of (id, partition, tenant_id, state, paused, max_parallel, archived_at); zero or one row
SELECT id, `partition`, tenant_id, state, paused, max_parallel, archived_at
  FROM workflows
 WHERE `partition` = ? AND id = ? AND tenant_id = ?
   FOR UPDATE
