-- The live job of one occurrence of a task (jobs_occurrence), e.g. a trigger asked twice.
-- Keyed by the task's partition, which its jobs share (docs/sharding.md).
-- Parameters: partition, task_id, occurrence
-- Returns: rows of (id)
SELECT id FROM jobs WHERE `partition` = ? AND task_id = ? AND occurrence = ?
