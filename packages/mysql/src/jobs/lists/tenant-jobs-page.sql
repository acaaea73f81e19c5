-- A tenant's live jobs newest first, strictly before the cursor (at, id) and not before `from`.
-- Walks jobs_by_tenant_time (tenant_id, scheduled_for, id) backwards from the cursor.
-- Parameters: tenant_id, from, cursor_at, cursor_at, cursor_at, cursor_id, limit
-- Returns: rows of (id)
SELECT id
  FROM jobs
 WHERE tenant_id = ? AND scheduled_for >= ? AND scheduled_for <= ?
   AND (scheduled_for < ? OR (scheduled_for = ? AND id < ?))
 ORDER BY scheduled_for DESC, id DESC
 LIMIT ?
