-- A deleted task stops counting against its tenant's maxTasks.
-- Parameters: tenant_id
-- Returns: affected rows
UPDATE tenants
   SET task_count = task_count - 1
 WHERE id = ? AND task_count > 0
