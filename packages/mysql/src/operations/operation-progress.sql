-- The end of a batch, in its transaction: the new cursor and counts, the lease renewed, and the
-- operation's end when the batch was its last (state not 'running': lease and owner cleared).
-- Fenced by the owner: a worker whose lease was taken changes nothing.
-- Parameters: cursor_at, cursor_id, done, failed, ttl_ms, state, state, error, id, owner
-- Returns: affected rows
UPDATE operations
   SET cursor_at = ?, cursor_id = ?, done = done + ?, failed = failed + ?, batches = batches + 1,
       lease_expires_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND, updated_at = NOW(3),
       state = ?, finished_at = IF(? = 'running', NULL, NOW(3)), error = ?
 WHERE id = ? AND lease_owner = ? AND state = 'running'
