-- Running jobs claimed by executors known to be gone (their pod no longer exists). A job parked
-- after a 202 (deadline_at set) is not held by its executor any more, so it is left to its
-- deadline. Walks jobs_by_state_lease over the running rows, which executor concurrency bounds.
-- task_id, has_callbacks, counts_failures, workflow_id, node_id: what the end of its attempt here
-- sets off (the finish path, ../finish); lane, trace_context: the span of that end, in the
-- occurrence's trace (read from the row the lock already fetched).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- Parameters: owners (list), partitions (list), limit
-- Returns: rows of (id, attempt, spent, task_id, has_callbacks, counts_failures, workflow_id, node_id, partition, lane, trace_context)
SELECT id, attempt, attempt >= max_attempts AS spent,
       task_id, callbacks IS NOT NULL AS has_callbacks, counts_failures, workflow_id, node_id, `partition`,
       lane, trace_context
  FROM jobs
 WHERE state = 'running' AND claimed_by IN (?) AND deadline_at IS NULL AND `partition` IN (?)
 ORDER BY id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
