-- A task's tag index rows whose tag it no longer has (task-store.ts, pruneTaskTags), deleted after
-- the change that dropped them committed, under a share lock of the task's row. Walks
-- task_tags_by_task. With no tag kept, task-tags-delete.sql instead.
-- Parameters: task_id, tags kept (list)
-- Returns: affected rows
DELETE FROM task_tags WHERE task_id = ? AND tag NOT IN (?)
