-- A task's tag index rows (docs/tags.md), all of them: a task that kept no tag (task-store.ts,
-- pruneTaskTags) or a create that failed.
-- Walks task_tags_by_task.
-- Parameters: task_id
-- Returns: affected rows
DELETE FROM task_tags WHERE task_id = ?
