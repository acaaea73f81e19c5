-- Gives back the claims of executors that are gone, without waiting for their leases; fenced by
-- attempt and owner, so a claim taken over meanwhile is left alone.
-- Parameters: ids (list), rows ((id, attempt) list), owners (list)
-- Returns: affected rows
UPDATE jobs
   SET state = IF(attempt >= max_attempts, 'dead', 'pending'),
       last_error = IF(attempt >= max_attempts, 'executor gone on the last attempt', 'executor gone'),
       finished_at = IF(attempt >= max_attempts, NOW(3), NULL),
       run_at = NOW(3), claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3)
 WHERE id IN (?) AND (id, attempt) IN (?) AND state = 'running' AND claimed_by IN (?)
