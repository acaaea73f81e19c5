-- The tenant's dead jobs among the given ids, locked for a redrive, in primary-key order.
-- Parameters: ids (list), tenant_id
-- Returns: rows of (id, task_id)
SELECT id, task_id FROM jobs WHERE id IN (?) AND tenant_id = ? AND state = 'dead' ORDER BY id FOR UPDATE
