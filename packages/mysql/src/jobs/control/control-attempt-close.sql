-- Closes the attempt a job-api callback ended: the open row of a parked (202) attempt, or a row
-- made from the job row when the completion came before the executor had recorded the 202 (an
-- attempt row is written when its attempt ends; the claim is still open then). A row already
-- closed stays as it is. Runs before the job update, which forgets the claim.
-- Parameters: error_class, error, partition (the locked row's), job_id, attempt
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, finished_at, error_class, error, `partition`)
SELECT id, attempt, COALESCE(claimed_by, ''), COALESCE(claimed_at, NOW(3)), NOW(3), ?, ?, `partition`
  FROM jobs
 WHERE `partition` = ? AND id = ? AND attempt = ?
ON DUPLICATE KEY UPDATE
  error_class = IF(job_attempts.finished_at IS NULL, VALUES(error_class), job_attempts.error_class),
  error = IF(job_attempts.finished_at IS NULL, VALUES(error), job_attempts.error),
  finished_at = IF(job_attempts.finished_at IS NULL, VALUES(finished_at), job_attempts.finished_at)
