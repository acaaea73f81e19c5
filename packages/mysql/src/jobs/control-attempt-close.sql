-- Closes a job's open attempt row from job-api (complete, or cancel of a parked job).
-- Parameters: error_class, error, id, attempt
UPDATE job_attempts
   SET finished_at = NOW(3), error_class = ?, error = ?
 WHERE job_id = ? AND attempt = ? AND finished_at IS NULL
