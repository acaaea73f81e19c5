-- A finished run that an operator's retry re-runs part of is running again.
-- Parameters: id
-- Returns: affected rows
UPDATE workflows
   SET state = 'running', finished_at = NULL, updated_at = NOW(3)
 WHERE id = ? AND state IN ('failed', 'cancelled')
