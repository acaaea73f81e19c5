-- Task keys (schedules as code, docs/schedules-as-code.md): a tenant's own name for a task,
-- `[a-z0-9][a-z0-9._-]*` up to 128 characters, unique among the tenant's live tasks, so that
-- `dsched apply` (POST /v1/tasks:apply) finds the task a file entry means, and prunes exactly the
-- keyed tasks a file no longer lists.
--
-- task_key: the key, NULL for a task without one. live_key: the key while the task is not deleted
-- (a stored generated column), so a deleted task's key is free again and its row keeps the key it
-- had. tasks_live_key: the uniqueness, and the index apply reads a tenant's keyed tasks by (one
-- range of (tenant_id, live_key) with live_key NOT NULL; unkeyed tasks are NULLs, which a unique
-- index does not compare). MariaDB 10.6 and MySQL 8 both index stored generated columns.
ALTER TABLE tasks
  ADD COLUMN task_key VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NULL,
  ADD COLUMN live_key VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin
    AS (CASE WHEN state <> 'deleted' THEN task_key END) STORED,
  ADD UNIQUE KEY tasks_live_key (tenant_id, live_key);
