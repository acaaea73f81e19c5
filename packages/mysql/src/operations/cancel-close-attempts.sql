-- A cancel batch closes the open attempts of its parked jobs (running, answered 202, no claim), as
-- job-api's cancel does (control-attempt-close.sql). Before the jobs' update, which ends them.
-- Parameters: ids (list)
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, finished_at, error_class, error, `partition`)
SELECT id, attempt, '', COALESCE(claimed_at, NOW(3)), NOW(3), 'cancelled', 'cancelled', `partition`
  FROM jobs
 WHERE id IN (?) AND state = 'running' AND claimed_by IS NULL
ON DUPLICATE KEY UPDATE
  error_class = IF(job_attempts.finished_at IS NULL, VALUES(error_class), job_attempts.error_class),
  error = IF(job_attempts.finished_at IS NULL, VALUES(error), job_attempts.error),
  finished_at = IF(job_attempts.finished_at IS NULL, VALUES(finished_at), job_attempts.finished_at)
