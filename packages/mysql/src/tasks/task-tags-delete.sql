-- A task's tag index rows (docs/tags.md), before they are written again or the task is deleted.
-- Walks task_tags_by_task.
-- Parameters: task_id
-- Returns: affected rows
DELETE FROM task_tags WHERE task_id = ?
