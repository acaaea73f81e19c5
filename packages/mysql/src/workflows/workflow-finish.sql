-- Ends runs that are still running: succeeded, failed or cancelled, once (conditional on running).
-- Parameters: state, ids (list)
-- Returns: affected rows
UPDATE workflows
   SET state = ?, finished_at = NOW(3), updated_at = NOW(3)
 WHERE id IN (?) AND state = 'running'
