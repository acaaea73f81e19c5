-- A tenant's live task, share-locked: it cannot be edited or deleted until the run requests
-- made from it (trigger-now, backfill) commit.
-- Keyed by the task's partition (its row's: task-runs.ts reads it first), so through vtgate the
-- run request's transaction stays on the task's shard (docs/sharding.md).
-- Parameters: partition, id, tenant_id
-- Returns: rows of (id, schedule, tagged, partition)
SELECT id, schedule, tags IS NOT NULL AS tagged, `partition`
  FROM tasks
 WHERE `partition` = ? AND id = ? AND tenant_id = ? AND state <> 'deleted'
  LOCK IN SHARE MODE
