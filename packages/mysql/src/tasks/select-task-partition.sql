-- A tenant's task's partition (its shard key), read before the task's change so that every
-- statement of the change's transaction names it (lock-task.sql): through vtgate, a read of every
-- shard by the primary key, outside any transaction (a task's change is not a hot path). A task's
-- partition never changes.
-- Parameters: id, tenant_id
-- Returns: rows of (partition)
SELECT `partition` FROM tasks WHERE id = ? AND tenant_id = ?
