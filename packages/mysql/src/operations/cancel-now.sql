-- A cancel batch's jobs nobody is calling (pending, or parked), cancelled. The rows are locked by
-- the batch's select in this transaction, so its states hold; the state condition is the fence.
-- Parameters: ids (list)
-- Returns: affected rows
UPDATE jobs
   SET cancel_requested = 1, last_error = 'cancelled', finished_at = NOW(3), deadline_at = NULL,
       claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3), state = 'cancelled'
 WHERE id IN (?) AND (state = 'pending' OR (state = 'running' AND claimed_by IS NULL))
