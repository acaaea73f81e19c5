-- Asynchronous jobs (the target answered 202) whose deadline passed without a completion. Walks
-- jobs_deadline: deadline_at is set only while a job is parked, so the range holds nothing else.
-- task_id, has_callbacks, counts_failures, workflow_id, node_id: what the end of its attempt here
-- sets off (the finish path, ../finish); lane, trace_context: the span of that end, in the
-- occurrence's trace (read from the row the lock already fetched).
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- `partition` is the last column of jobs_deadline: the range keeps its order.
-- Parameters: now, partitions (list), limit
-- Returns: rows of (id, attempt, spent, task_id, has_callbacks, counts_failures, workflow_id, node_id, partition, lane, trace_context)
SELECT id, attempt, attempt >= max_attempts AS spent,
       task_id, callbacks IS NOT NULL AS has_callbacks, counts_failures, workflow_id, node_id, `partition`,
       lane, trace_context
  FROM jobs
 WHERE deadline_at < ? AND state = 'running' AND `partition` IN (?)
 ORDER BY deadline_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
