-- Attempt rows of the given jobs, in attempt order.
-- Parameters: job_ids (list)
-- Returns: rows of (job_id, attempt, executor, started_at, finished_at, status, error_class, error, duration_ms)
SELECT job_id, attempt, executor, started_at, finished_at, status, error_class, error, duration_ms
  FROM job_attempts
 WHERE job_id IN (?)
 ORDER BY job_id, attempt
