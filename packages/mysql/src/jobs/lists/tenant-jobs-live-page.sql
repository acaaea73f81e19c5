-- A tenant's live jobs in one state (pending, running) newest first, strictly before the cursor
-- (at, id) and not before `from`. Walks jobs_by_tenant_time (tenant_id, scheduled_for, id) and
-- reads each row's state: no index keyed on a live state, so that claims and outcomes do not
-- rewrite one for every job. The walk is bounded by the tenant's live jobs in the range; the
-- finished ones leave MySQL soon after they finish.
-- Parameters: tenant_id, state, from, cursor_at, cursor_at, cursor_at, cursor_id, limit
-- Returns: rows of (id)
SELECT id
  FROM jobs FORCE INDEX (jobs_by_tenant_time)
 WHERE tenant_id = ? AND state = ? AND scheduled_for >= ? AND scheduled_for <= ?
   AND (scheduled_for < ? OR (scheduled_for = ? AND id < ?))
 ORDER BY scheduled_for DESC, id DESC
 LIMIT ?
