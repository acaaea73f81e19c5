-- One batch of a task's dead jobs, locked for a bulk redrive (walks jobs_by_task).
-- Parameters: task_id, tenant_id, limit
-- Returns: rows of (id)
SELECT id
  FROM jobs
 WHERE task_id = ? AND tenant_id = ? AND state = 'dead'
 ORDER BY scheduled_for, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
