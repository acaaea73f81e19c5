-- One batch of a task's dead jobs, locked for a bulk redrive (walks jobs_by_task). Keyed by one
-- group of partitions (one shard on Vitess, docs/sharding.md): a task's jobs share its partition,
-- so one group holds them all, and the others' batches come back empty.
-- Parameters: partitions (list), task_id, tenant_id, limit
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM jobs
 WHERE `partition` IN (?) AND task_id = ? AND tenant_id = ? AND state = 'dead'
 ORDER BY scheduled_for, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
