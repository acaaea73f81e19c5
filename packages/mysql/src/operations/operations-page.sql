-- A page of the tenant's operations, newest first (ids are time-ordered), strictly before the
-- cursor id: a range of operations_by_tenant (tenant_id, id) walked backwards.
-- Parameters: tenant_id, cursor_id, limit
-- Returns: rows of (id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at, cursor_id, error, created_at, updated_at, finished_at)
SELECT id, tenant_id, action, filter, state, cancel_requested, matched, done, failed, batches, cursor_at,
       cursor_id, error, created_at, updated_at, finished_at
  FROM operations FORCE INDEX (operations_by_tenant)
 WHERE tenant_id = ? AND id < ?
 ORDER BY id DESC
 LIMIT ?
