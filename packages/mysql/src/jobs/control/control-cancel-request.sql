-- Marks a job an executor is calling: the executor aborts the call at its next lease renewal and
-- records it cancelled; a retry or give-back of it becomes cancelled too.
-- Parameters: id, attempt
-- Returns: affected rows
UPDATE jobs
   SET cancel_requested = 1, updated_at = NOW(3)
 WHERE id = ? AND attempt = ? AND state = 'running'
