-- The next due occurrence job of a workflow task (lane 'workflow', which no executor claims), locked
-- to start its run: the claim's own index range (jobs_claim: claim_lane, priority, run_at), so it is
-- the claim query with another lane. SKIP LOCKED: two reconcilers never wait on, or start, the same
-- occurrence. Keyed by the sweep's group of partitions (one shard on Vitess, docs/sharding.md):
-- `partition` is the index's last column, so the range keeps its order.
-- Parameters: partitions (list), limit
-- Returns: rows of (id, tenant_id, task_id, attempt, trace_context, tags)
SELECT id, tenant_id, task_id, attempt, trace_context, tags, `partition`
  FROM jobs
 WHERE claim_lane = 'workflow' AND priority IN (0, 1, 2, 3) AND run_at <= NOW(3) AND `partition` IN (?)
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
