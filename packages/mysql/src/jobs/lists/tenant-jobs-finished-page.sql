-- A tenant's finished jobs in one state (succeeded, dead, cancelled) newest first, strictly before
-- the cursor (at, id) and not before `from` (the DLQ is state 'dead'). Walks
-- jobs_by_tenant_finished (tenant_id, finished_state, scheduled_for, id).
-- Parameters: tenant_id, state, from, cursor_at, cursor_at, cursor_at, cursor_id, limit
-- Returns: rows of (id)
SELECT id
  FROM jobs
 WHERE tenant_id = ? AND finished_state = ? AND scheduled_for >= ? AND scheduled_for <= ?
   AND (scheduled_for < ? OR (scheduled_for = ? AND id < ?))
 ORDER BY scheduled_for DESC, id DESC
 LIMIT ?
