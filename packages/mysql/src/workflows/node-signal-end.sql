-- A wait node's job succeeds by its signal: one attempt (the signal), fenced by the attempt and
-- state read under the row lock, so the signal and the timeout end the job once.
-- Keyed by the run's partition (its node jobs').
-- Parameters: partition, id, attempt
-- Returns: affected rows
UPDATE jobs
   SET state = 'succeeded', attempt = attempt + 1, started_at = COALESCE(started_at, NOW(3)),
       last_status = NULL, last_error = NULL, finished_at = NOW(3), updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'pending'
