-- A task's live scheduled and backfill jobs in [from, to), for the audit (walks jobs_by_task).
-- Parameters: task_id, from, to, limit
-- Returns: rows of (id, scheduled_for, state, kind)
SELECT id, scheduled_for, state, kind
  FROM jobs
 WHERE task_id = ? AND scheduled_for >= ? AND scheduled_for < ? AND kind IN ('scheduled', 'backfill')
 LIMIT ?
