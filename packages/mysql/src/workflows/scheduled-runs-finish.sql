-- The occurrence jobs of runs that ended take the run's outcome: succeeded, dead (failed) or
-- cancelled; conditional on still running, so a repeat changes nothing.
-- Keyed by the runs' partitions, which their occurrence jobs share (D54; docs/sharding.md).
-- Parameters: state, last_error, partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = ?, last_error = ?, finished_at = NOW(3), lease_expires_at = NULL, updated_at = NOW(3)
 WHERE `partition` IN (?) AND id IN (?) AND lane = 'workflow' AND state = 'running'
