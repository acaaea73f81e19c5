-- Candidate jobs of one lane in claim order, locked for this claim; rows other claimers hold are
-- skipped. Walks jobs_claim (lane, state, priority, run_at, id): the IN list over priority turns
-- the scan into one range per priority, read in index order, so there is no filesort and only
-- the rows returned are locked (docs/executor.md shows the EXPLAIN).
-- The whole row is read here: the lock already visits it, and the call needs target and retry.
-- The tenant's signing secret and concurrency limit come from scalar subqueries, which a locking
-- read does not lock (MySQL documents it; MariaDB behaves the same): a join would lock the tenant
-- row, and a claimer skipping a tenant row another claimer holds would skip all its jobs.
-- Parameters: lane, limit
SELECT j.id, j.tenant_id, j.task_id, j.kind, j.scheduled_for, j.priority, j.lane, j.attempt, j.given_back,
       j.max_attempts, j.target, j.retry, j.cancel_requested, NOW(3) AS db_now,
       (SELECT t.signing_secret FROM tenants t WHERE t.id = j.tenant_id) AS signing_secret,
       (SELECT t.max_concurrency FROM tenants t WHERE t.id = j.tenant_id) AS max_concurrency
  FROM jobs j
 WHERE j.lane = ? AND j.state = 'pending' AND j.priority IN (0, 1, 2, 3) AND j.run_at <= NOW(3)
 ORDER BY j.priority, j.run_at, j.id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
