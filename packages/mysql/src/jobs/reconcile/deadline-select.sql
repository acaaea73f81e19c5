-- Asynchronous jobs (the target answered 202) whose deadline passed without a completion. Walks
-- jobs_deadline: deadline_at is set only while a job is parked, so the range holds nothing else.
-- task_id, has_callbacks, counts_failures, workflow_id, node_id: what the end of its attempt here
-- sets off (the finish path, ../finish).
-- Parameters: limit
-- Returns: rows of (id, attempt, spent, task_id, has_callbacks, counts_failures, workflow_id, node_id)
SELECT id, attempt, attempt >= max_attempts AS spent,
       task_id, callbacks IS NOT NULL AS has_callbacks, counts_failures, workflow_id, node_id
  FROM jobs
 WHERE deadline_at < NOW(3) AND state = 'running'
 ORDER BY deadline_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
