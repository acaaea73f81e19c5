-- Locks a tenant's run for an operation on it (cancel, pause, resume, retry); another tenant's id
-- matches nothing, like a missing one.
-- Parameters: id, tenant_id
-- Returns: rows of (id, tenant_id, state, paused, max_parallel); zero or one row
SELECT id, tenant_id, state, paused, max_parallel
  FROM workflows
 WHERE id = ? AND tenant_id = ?
   FOR UPDATE
