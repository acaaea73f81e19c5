-- The start of a batch: the operation locked by its primary key, if this owner still holds its
-- lease and it is running. Nothing returned: the lease was lost (expired and taken), and the batch
-- must not run. Its cancel mark and cursor are read under the lock.
-- Parameters: id, owner
-- Returns: rows of (id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at, cursor_id, error, created_at, updated_at, finished_at)
SELECT id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at,
       cursor_id, error, created_at, updated_at, finished_at
  FROM operations
 WHERE id = ? AND lease_owner = ? AND state = 'running' AND lease_expires_at >= NOW(3)
   FOR UPDATE
