-- Jobs of a task materialised but not started (pending at attempt 0), locked. A claim in flight
-- is waited for, then its job is running and no longer matches. Walks jobs_occurrence.
-- Parameters: task_id, kinds (list)
SELECT id, occurrence, kind, scheduled_for, run_at
  FROM jobs
 WHERE task_id = ? AND kind IN (?) AND state = 'pending' AND attempt = 0
 ORDER BY id
   FOR UPDATE
