-- A task's tag index rows, one per tag (`key:value`), written before the commit of the task's
-- create or change that gives it those tags, in a statement of its own on dsched_global
-- (task-store.ts, addTaskTags): a row there already is left as it is.
-- Parameters: rows (tenant_id, tag, task_id)
-- Returns: affected rows
INSERT INTO task_tags (tenant_id, tag, task_id) VALUES ?
ON DUPLICATE KEY UPDATE task_id = task_tags.task_id
