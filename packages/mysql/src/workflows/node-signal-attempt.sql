-- The signal's audit, as the job's attempt row (it moves to history with the job, and job-api shows
-- it in the job's attempts): `executor` says who signalled and from where.
-- Parameters: job_id, attempt, executor
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, finished_at, status, error_class, error, duration_ms,
                          `partition`)
VALUES (?, ?, ?, NOW(3), NOW(3), NULL, NULL, NULL, 0, ?)
