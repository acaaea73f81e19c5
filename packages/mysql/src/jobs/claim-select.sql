-- Candidate jobs of one lane in claim order, locked for this claim; rows other claimers hold are
-- skipped. Walks jobs_claim (lane, state, priority, run_at, id): the IN list over priority turns
-- the scan into one range per priority, read in index order, so there is no filesort and only
-- the rows returned are locked (docs/executor.md shows the EXPLAIN).
-- The whole row is read here: the lock already visits it, and the call needs target and retry.
-- Parameters: lane, limit
SELECT id, tenant_id, task_id, kind, scheduled_for, priority, lane, attempt, given_back, max_attempts,
       target, retry, cancel_requested, NOW(3) AS db_now
  FROM jobs
 WHERE lane = ? AND state = 'pending' AND priority IN (0, 1, 2, 3) AND run_at <= NOW(3)
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
