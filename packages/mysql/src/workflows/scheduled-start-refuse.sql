-- An occurrence job whose task has no workflow to start (deleted meanwhile, or made before the
-- task became what it is): dead, with the reason.
-- Keyed by the job's partition (docs/sharding.md).
-- Parameters: last_error, partition, id, attempt
-- Returns: affected rows
UPDATE jobs
   SET state = 'dead', attempt = attempt + 1, last_error = ?, finished_at = NOW(3), updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'pending'
