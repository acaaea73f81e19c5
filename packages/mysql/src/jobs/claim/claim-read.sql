-- The rows of the jobs just locked by claim-select, by primary key, with what the claim and the call
-- need of their tenant. A plain read (the job locks are already held by claim-select), so the join
-- to tenants locks nothing either: a tenant row another transaction holds never hides its jobs, and
-- no claim makes the tenant row a hot spot. One primary-key lookup of the tenant per row (eq_ref),
-- where three scalar subqueries made three. LEFT JOIN: a job whose tenant row is gone still comes
-- back (its secret NULL), as with the subqueries, rather than staying locked and unclaimed.
-- has_callbacks and counts_failures tell the outcome what a final one sets off (follow-ups.ts).
-- Parameters: ids (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, partition, tenant_id, task_id, kind, workflow_id, node_id, scheduled_for, priority, lane, attempt, max_attempts, run_at, target, retry, cancel_requested, db_now, has_callbacks, counts_failures, flow_key, flow_parallelism, flow_rate, trace_context, signing_secret, max_concurrency, weight)
SELECT j.id, j.`partition`, j.tenant_id, j.task_id, j.kind, j.workflow_id, j.node_id, j.scheduled_for, j.priority, j.lane,
       j.attempt,
       j.max_attempts, j.run_at, j.target, j.retry, j.cancel_requested, :now AS db_now,
       j.callbacks IS NOT NULL AS has_callbacks, j.counts_failures, j.flow_key, j.flow_parallelism, j.flow_rate,
       j.trace_context, t.signing_secret, t.max_concurrency, t.weight
  FROM jobs j
  LEFT JOIN tenants t ON t.id = j.tenant_id
 WHERE j.id IN (?)
