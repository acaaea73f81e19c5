-- A retry batch: pending jobs waiting out a retry backoff become due now (their attempt, and so
-- their fencing token, unchanged). Rows locked by the batch's select.
-- Parameters: ids (list)
-- Returns: affected rows
UPDATE jobs
   SET run_at = NOW(3), updated_at = NOW(3)
 WHERE id IN (?) AND state = 'pending' AND held = 0 AND attempt > 0 AND run_at > NOW(3)
