-- A pending job whose cancel was requested while it ran (and which came back to pending) is
-- cancelled instead of claimed: a cancelled job never fires.
-- Parameters: ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = 'cancelled', last_error = 'cancelled', finished_at = NOW(3),
       claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3)
 WHERE id IN (?) AND state = 'pending' AND cancel_requested = 1
