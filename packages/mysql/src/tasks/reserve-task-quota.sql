-- Counts a new task against its tenant's maxTasks: matches no row when the quota is used up.
-- The row lock serialises concurrent creates of one tenant across API replicas.
-- Parameters: tenant_id
-- Returns: affected rows
UPDATE tenants
   SET task_count = task_count + 1
 WHERE id = ? AND (max_tasks IS NULL OR task_count < max_tasks)
