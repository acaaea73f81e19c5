-- The rows of the jobs just locked by claim-select, by primary key, keyed by the claimer's group of
-- partitions (one shard's: docs/sharding.md). A plain read: the job locks are already held by
-- claim-select. Only jobs: what the claim needs of each job's tenant (secret, limit, weight) is
-- read apart (claim-tenants.sql), so no statement of the claim joins the global keyspace's
-- `tenants` to a shard's `jobs` (a join across keyspaces on Vitess).
-- has_callbacks and counts_failures tell the outcome what a final one sets off (follow-ups.ts).
-- Parameters: ids (list), partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, partition, tenant_id, task_id, kind, workflow_id, node_id, scheduled_for, priority, lane, attempt, max_attempts, run_at, target, retry, cancel_requested, db_now, has_callbacks, counts_failures, flow_key, flow_parallelism, flow_rate, trace_context)
SELECT id, `partition`, tenant_id, task_id, kind, workflow_id, node_id, scheduled_for, priority, lane, attempt,
       max_attempts, run_at, target, retry, cancel_requested, :now AS db_now,
       callbacks IS NOT NULL AS has_callbacks, counts_failures, flow_key, flow_parallelism, flow_rate,
       trace_context
  FROM jobs
 WHERE id IN (?) AND `partition` IN (?)
