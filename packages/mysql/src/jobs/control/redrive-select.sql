-- The tenant's dead jobs among the given ids, locked for a redrive, in primary-key order. A
-- workflow node's job is re-run through its workflow (POST /v1/workflows/{id}/nodes/{nodeId}/retry),
-- which resets the node with it: redriven alone, its success would reach no child.
-- Parameters: ids (list), tenant_id
-- Returns: rows of (id, task_id)
SELECT id, task_id FROM jobs WHERE id IN (?) AND tenant_id = ? AND state = 'dead' AND workflow_id IS NULL
 ORDER BY id FOR UPDATE
