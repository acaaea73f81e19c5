-- Locks runs that are still running, to end them (cancel, fail_fast, deadline); the marker keeps
-- only those whose failurePolicy is fail_fast. By primary key, in key order.
-- Parameters: ids (list)
-- Returns: rows of (id, tenant_id)
SELECT id, tenant_id
  FROM workflows
 WHERE id IN (?) AND state = 'running' %FAIL_FAST%
 ORDER BY id
   FOR UPDATE
