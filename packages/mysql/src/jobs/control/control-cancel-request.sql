-- Marks a job an executor is calling: the executor aborts the call at its next lease renewal and
-- records it cancelled; a retry or give-back of it becomes cancelled too.
-- Parameters: partition (the locked row's), id, attempt
-- Returns: affected rows
UPDATE jobs
   SET cancel_requested = 1, updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'running'
