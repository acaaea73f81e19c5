-- Tasks (of those given) with a run still pending or running, for overlap policy `forbid`.
-- Walks jobs_occurrence (task_id, occurrence) by its task_id prefix.
-- Parameters: task_ids (list)
SELECT DISTINCT task_id
  FROM jobs
 WHERE task_id IN (?) AND state IN ('pending', 'running')
