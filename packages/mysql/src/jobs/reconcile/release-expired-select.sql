-- Running jobs whose claim lease has expired: their executor died, lost the database, or (for a
-- job parked after a 202) the target stopped heartbeating. Walks jobs_by_state_lease.
-- task_id, has_callbacks, counts_failures, workflow_id, node_id: what the end of its attempt here
-- sets off (the finish path, ../finish); lane, trace_context: the span of that end, in the
-- occurrence's trace (read from the row the lock already fetched).
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- `partition` is the last column of jobs_by_state_lease: the range keeps its order.
-- Parameters: now, partitions (list), limit
-- Returns: rows of (id, attempt, spent, task_id, has_callbacks, counts_failures, workflow_id, node_id, partition, lane, trace_context)
SELECT id, attempt, attempt >= max_attempts AS spent,
       task_id, callbacks IS NOT NULL AS has_callbacks, counts_failures, workflow_id, node_id, `partition`,
       lane, trace_context
  FROM jobs
 WHERE state = 'running' AND lease_expires_at < ? AND `partition` IN (?)
 ORDER BY lease_expires_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
