-- The running operation a lease take gave this owner (operations_running's state range).
-- Parameters: owner
-- Returns: rows of (id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at, cursor_id, error, created_at, updated_at, finished_at)
SELECT id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at,
       cursor_id, error, created_at, updated_at, finished_at
  FROM operations
 WHERE state = 'running' AND lease_owner = ?
