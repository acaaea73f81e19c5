-- The workflow a task starts at each occurrence (a plain read: the occurrence job's lock is held).
-- Keyed by the occurrence job's partition, which is its task's (docs/sharding.md).
-- Parameters: partition, task_id
-- Returns: at most one row of (workflow)
SELECT workflow FROM tasks WHERE `partition` = ? AND id = ?
