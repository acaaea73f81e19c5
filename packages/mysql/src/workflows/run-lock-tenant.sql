-- Locks a tenant's run for an operation on it (cancel, pause, resume, retry); another tenant's id
-- matches nothing, like a missing one.
-- Parameters: id, tenant_id
-- archived_at: set when the run moved to history (nothing may change it any more).
-- Returns: rows of (id, partition, tenant_id, state, paused, max_parallel, archived_at); zero or one row
SELECT id, `partition`, tenant_id, state, paused, max_parallel, archived_at
  FROM workflows
 WHERE id = ? AND tenant_id = ?
   FOR UPDATE
