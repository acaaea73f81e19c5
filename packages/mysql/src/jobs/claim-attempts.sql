-- Opens an attempt row for each job just claimed.
-- Parameters: ids (list)
INSERT INTO job_attempts (job_id, attempt, executor, started_at)
SELECT id, attempt, claimed_by, NOW(3) FROM jobs WHERE id IN (?) AND state = 'running'
