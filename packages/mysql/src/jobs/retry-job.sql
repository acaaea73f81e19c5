-- Gives a job back for another attempt after a backoff, fenced by the claim's attempt.
-- Parameters: last_status, last_error, delay_ms, id, attempt
UPDATE jobs
   SET state = 'pending', last_status = ?, last_error = ?,
       run_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND,
       claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3)
 WHERE id = ? AND attempt = ? AND state = 'running'
