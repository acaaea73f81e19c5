-- The live job of one occurrence of a task (jobs_occurrence), e.g. a trigger asked twice.
-- Parameters: task_id, occurrence
-- Returns: rows of (id)
SELECT id FROM jobs WHERE task_id = ? AND occurrence = ?
