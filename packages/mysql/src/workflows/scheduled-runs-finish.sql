-- The occurrence jobs of runs that ended take the run's outcome: succeeded, dead (failed) or
-- cancelled; conditional on still running, so a repeat changes nothing.
-- Parameters: state, last_error, ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = ?, last_error = ?, finished_at = NOW(3), lease_expires_at = NULL, updated_at = NOW(3)
 WHERE id IN (?) AND lane = 'workflow' AND state = 'running'
