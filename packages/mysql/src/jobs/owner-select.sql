-- Running jobs claimed by executors known to be gone (their pod no longer exists). A job parked
-- after a 202 (deadline_at set) is not held by its executor any more, so it is left to its
-- deadline. Walks jobs_by_state_lease over the running rows, which executor concurrency bounds.
-- Parameters: owners (list), limit
-- Returns: rows of (id, attempt, spent)
SELECT id, attempt, attempt >= max_attempts AS spent
  FROM jobs
 WHERE state = 'running' AND claimed_by IN (?) AND deadline_at IS NULL
 ORDER BY id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
