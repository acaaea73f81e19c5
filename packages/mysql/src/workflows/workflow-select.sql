-- One live run of a tenant (another tenant's id reads as missing). A run marked archived reads as
-- missing too: its rows are being deleted, and its readers go to history (docs/history.md).
-- Parameters: id, tenant_id
-- Returns: rows of (id, tenant_id, name, state, paused, failure_policy, max_parallel, node_count, edge_count, deadline_at, metadata, created_at, updated_at, finished_at, tags); zero or one row
SELECT id, tenant_id, name, state, paused, failure_policy, max_parallel, node_count, edge_count, deadline_at,
       metadata, created_at, updated_at, finished_at, tags
  FROM workflows
 WHERE id = ? AND tenant_id = ? AND archived_at IS NULL
