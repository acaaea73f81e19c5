-- Whether a task (in any state, deleted included) exists and is the tenant's.
-- Parameters: id, tenant_id
-- Returns: yes (1); zero or one row
SELECT 1 AS yes FROM tasks WHERE id = ? AND tenant_id = ?
