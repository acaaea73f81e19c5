-- A page of a tenant's live runs (GET /v1/workflows), newest first by creation, strictly before
-- the cursor (at, id) and not before `from`: workflows_by_tenant_created (tenant_id, created_at,
-- id) walked backwards. State and name filter the rows walked (`?` IS NULL: no filter). A run
-- marked archived is read from history instead.
-- Parameters: tenant_id, from, cursor_at, cursor_at, cursor_at, cursor_id, state, state, name, name, limit
-- Returns: rows of (id, name, state, paused, failure_policy, max_parallel, node_count, edge_count,
--          deadline_at, metadata, tags, created_at, updated_at, finished_at)
SELECT id, name, state, paused, failure_policy, max_parallel, node_count, edge_count, deadline_at, metadata,
       tags, created_at, updated_at, finished_at
  FROM workflows FORCE INDEX (workflows_by_tenant_created)
 WHERE tenant_id = ? AND created_at >= ? AND created_at <= ?
   AND (created_at < ? OR (created_at = ? AND id < ?))
   AND archived_at IS NULL
   AND (? IS NULL OR state = ?) AND (? IS NULL OR name = ?)
 ORDER BY created_at DESC, id DESC
 LIMIT ?
