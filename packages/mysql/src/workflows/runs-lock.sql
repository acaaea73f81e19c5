-- Locks runs that are still running, to end them (cancel, fail_fast, deadline); the marker keeps
-- only those whose failurePolicy is fail_fast. By primary key, in key order.
-- Keyed by the runs' partitions (docs/sharding.md): one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, partition, tenant_id)
SELECT id, `partition`, tenant_id
  FROM workflows
 WHERE `partition` IN (?) AND id IN (?) AND state = 'running' %FAIL_FAST%
 ORDER BY id
   FOR UPDATE
