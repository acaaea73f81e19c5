-- Running jobs whose claim lease has expired: their executor died, lost the database, or (for a
-- job parked after a 202) the target stopped heartbeating. Walks jobs_by_state_lease.
-- task_id, has_callbacks, counts_failures: what a job sent to the DLQ here sets off (follow-ups.ts).
-- Parameters: limit
-- Returns: rows of (id, attempt, spent, task_id, has_callbacks, counts_failures)
SELECT id, attempt, attempt >= max_attempts AS spent,
       task_id, callbacks IS NOT NULL AS has_callbacks, counts_failures
  FROM jobs
 WHERE state = 'running' AND lease_expires_at < NOW(3)
 ORDER BY lease_expires_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
