-- Asynchronous jobs (the target answered 202) whose deadline passed without a completion.
-- Walks jobs_by_state_deadline.
-- Parameters: limit
SELECT id, attempt, attempt >= max_attempts AS spent
  FROM jobs
 WHERE state = 'running' AND deadline_at < NOW(3)
 ORDER BY deadline_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
