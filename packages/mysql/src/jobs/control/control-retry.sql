-- An asynchronous job that reported failure with attempts left: back to pending after delay_ms
-- (or cancelled, when a cancel was requested meanwhile). Fenced by the attempt token.
-- Parameters: output (JSON or NULL), last_error, delay_ms, partition (the locked row's), id, attempt
-- Returns: affected rows
UPDATE jobs
   SET output = ?, last_error = ?, run_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND,
       finished_at = IF(cancel_requested = 1, NOW(3), NULL), claimed_by = NULL,
       lease_expires_at = NULL, deadline_at = NULL, updated_at = NOW(3),
       state = IF(cancel_requested = 1, 'cancelled', 'pending')
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'running'
