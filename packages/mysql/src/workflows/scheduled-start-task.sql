-- The workflow a task starts at each occurrence (a plain read: the occurrence job's lock is held).
-- Parameters: task_id
-- Returns: at most one row of (workflow)
SELECT workflow FROM tasks WHERE id = ?
