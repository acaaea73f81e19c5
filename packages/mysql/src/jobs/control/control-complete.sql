-- An asynchronous job's final completion (succeeded, or dead when it failed on its last attempt).
-- Fenced by the attempt token; an executor still holding the call loses it, so its own report of
-- the 202 is dropped as stale.
-- Parameters: output (JSON or NULL), last_error, state, partition (the locked row's), id, attempt
-- Returns: affected rows
UPDATE jobs
   SET output = ?, last_error = ?, finished_at = NOW(3), claimed_by = NULL, lease_expires_at = NULL,
       deadline_at = NULL, updated_at = NOW(3), state = ?
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'running'
