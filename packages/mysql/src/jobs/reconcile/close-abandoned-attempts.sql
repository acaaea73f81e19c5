-- Closes the attempt rows of claims the reconciler took back that are still open (a parked 202
-- attempt's row), so history shows how each ended. abandoned-attempts-insert.sql wrote the others.
-- Parameters: error_class, error, job_ids (list), rows ((job_id, attempt) list)
-- Returns: affected rows
UPDATE job_attempts
   SET finished_at = NOW(3), error_class = ?, error = ?,
       duration_ms = TIMESTAMPDIFF(MICROSECOND, started_at, NOW(3)) DIV 1000
 WHERE job_id IN (?) AND (job_id, attempt) IN (?) AND finished_at IS NULL
