-- Gives back n places of a tenant's maxTasks (deleted tasks, a failed create's reservation), in a
-- transaction of its own on the tenant's row, after the shard's transaction (docs/sharding.md).
-- Never below zero: a count a crash left high is the recount's (task-count-recount.ts).
-- Parameters: n, n, tenant_id
-- Returns: affected rows
UPDATE tenants
   SET task_count = IF(task_count > ?, task_count - ?, 0)
 WHERE id = ? AND task_count > 0
