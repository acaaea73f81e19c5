-- Cancels a job nobody is calling: pending, or parked waiting for its asynchronous completion.
-- Fenced by the attempt and state just read under the lock.
-- Parameters: partition (the locked row's), id, attempt, state
-- Returns: affected rows
UPDATE jobs
   SET cancel_requested = 1, last_error = 'cancelled', finished_at = NOW(3), deadline_at = NULL,
       claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3), state = 'cancelled'
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = ?
