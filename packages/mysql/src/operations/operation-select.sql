-- One of the tenant's operations, by primary key.
-- Parameters: id, tenant_id
-- Returns: rows of (id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at, cursor_id, error, created_at, updated_at, finished_at)
SELECT id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at,
       cursor_id, error, created_at, updated_at, finished_at
  FROM operations
 WHERE id = ? AND tenant_id = ?
