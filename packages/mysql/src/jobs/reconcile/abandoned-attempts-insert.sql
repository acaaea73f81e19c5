-- The attempt rows of claims the reconciler takes back, written from their job rows: an attempt
-- row is written when its attempt ends, and the executor that held these never wrote theirs. Runs
-- before the jobs are released, while they still name their executor. A row that exists already
-- is left as it is (a parked attempt's open row is closed by close-abandoned-attempts.sql).
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- Parameters: now, now, error_class, error, now, now, partitions (list), ids (list), (id, attempt) pairs (list)
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, finished_at, error_class, error, duration_ms,
                          `partition`)
SELECT id, attempt, claimed_by, COALESCE(claimed_at, ?), ?, ?, ?,
       TIMESTAMPDIFF(MICROSECOND, COALESCE(claimed_at, ?), ?) DIV 1000, `partition`
  FROM jobs
 WHERE `partition` IN (?) AND id IN (?) AND (id, attempt) IN (?) AND state = 'running' AND claimed_by IS NOT NULL
ON DUPLICATE KEY UPDATE job_id = job_attempts.job_id
