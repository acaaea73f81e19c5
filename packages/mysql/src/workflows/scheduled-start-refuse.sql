-- An occurrence job whose task has no workflow to start (deleted meanwhile, or made before the
-- task became what it is): dead, with the reason.
-- Parameters: last_error, id, attempt
-- Returns: affected rows
UPDATE jobs
   SET state = 'dead', attempt = attempt + 1, last_error = ?, finished_at = NOW(3), updated_at = NOW(3)
 WHERE id = ? AND attempt = ? AND state = 'pending'
