-- A pause or resume of one task (no tag filter), past the cursor until it is done: the tenant's task
-- by primary key when it is in the state the action changes.
-- Parameters: task_id, tenant_id, cursor_id, state
-- Returns: rows of (id, partition)
SELECT t.id, t.`partition`
  FROM tasks t
 WHERE t.id = ? AND t.tenant_id = ? AND t.id > ? AND t.state = ?
