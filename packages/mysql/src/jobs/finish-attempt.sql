-- Closes the attempt row of one claim.
-- Parameters: status, error_class, error, duration_ms, job_id, attempt
UPDATE job_attempts
   SET finished_at = NOW(3), status = ?, error_class = ?, error = ?, duration_ms = ?
 WHERE job_id = ? AND attempt = ? AND finished_at IS NULL
