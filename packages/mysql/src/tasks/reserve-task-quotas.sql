-- Counts n new tasks against their tenant's maxTasks at once (an apply's creates): matches no row
-- when they do not all fit, and then none is created. The row lock serialises the tenant's creates.
-- Parameters: n, tenant_id, n
-- Returns: affected rows
UPDATE tenants
   SET task_count = task_count + ?
 WHERE id = ? AND (max_tasks IS NULL OR task_count + ? <= max_tasks)
