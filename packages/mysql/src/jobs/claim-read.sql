-- The rows of the jobs just locked by claim-select, by primary key (a plain read: the locks are
-- already held), with what the claim and the call need of their tenant. The tenant columns come
-- from scalar subqueries, which never lock: a locking join would make the tenant row a hot spot,
-- and a claimer that skipped a tenant row another claimer held would skip all its jobs.
-- has_callbacks and counts_failures tell the outcome what a final one sets off (follow-ups.ts).
-- Parameters: ids (list)
-- Returns: rows of (id, tenant_id, task_id, kind, workflow_id, node_id, scheduled_for, priority, lane, attempt, max_attempts, run_at, target, retry, cancel_requested, db_now, has_callbacks, counts_failures, flow_key, flow_parallelism, flow_rate, signing_secret, max_concurrency, weight)
SELECT j.id, j.tenant_id, j.task_id, j.kind, j.workflow_id, j.node_id, j.scheduled_for, j.priority, j.lane,
       j.attempt,
       j.max_attempts, j.run_at, j.target, j.retry, j.cancel_requested, NOW(3) AS db_now,
       j.callbacks IS NOT NULL AS has_callbacks, j.counts_failures, j.flow_key, j.flow_parallelism, j.flow_rate,
       (SELECT t.signing_secret FROM tenants t WHERE t.id = j.tenant_id) AS signing_secret,
       (SELECT t.max_concurrency FROM tenants t WHERE t.id = j.tenant_id) AS max_concurrency,
       (SELECT t.weight FROM tenants t WHERE t.id = j.tenant_id) AS weight
  FROM jobs j
 WHERE j.id IN (?)
