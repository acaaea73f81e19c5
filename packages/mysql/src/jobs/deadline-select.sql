-- Asynchronous jobs (the target answered 202) whose deadline passed without a completion. Walks
-- jobs_deadline: deadline_at is set only while a job is parked, so the range holds nothing else.
-- Parameters: limit
-- Returns: rows of (id, attempt, spent)
SELECT id, attempt, attempt >= max_attempts AS spent
  FROM jobs
 WHERE deadline_at < NOW(3) AND state = 'running'
 ORDER BY deadline_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
