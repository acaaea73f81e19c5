-- outcome-attempts.sql for a batch with parked (202) attempts: such an attempt stays open (no
-- finished_at) when its job is now parked (running, no executor), until job-api's complete or the
-- reconciler's deadline closes it; when a cancel turned the park into 'cancelled', it is closed.
-- Parameters: rows (derived: job_id, attempt, executor, started_at, status, error_class, error, duration_ms, parked),
--   partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Each row takes its job's partition from the job row (p), as outcome-attempts.sql does; the
-- owners are read keyed by the batch's partitions, and the job again on its own (id, partition).
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, status, error_class, error, duration_ms,
                          finished_at, `partition`)
SELECT v.job_id, v.attempt, v.executor, v.started_at, v.status, v.error_class, v.error, v.duration_ms,
       IF(v.parked = 1 AND j.id IS NOT NULL, NULL, :now), p.`partition`
  FROM (:rows) v
  STRAIGHT_JOIN jobs p ON p.id = v.job_id AND p.`partition` IN (?)
  LEFT JOIN jobs j ON j.id = p.id AND j.`partition` = p.`partition` AND j.attempt = v.attempt AND j.state = 'running' AND j.claimed_by IS NULL
ON DUPLICATE KEY UPDATE
  status = IF(job_attempts.finished_at IS NULL, VALUES(status), job_attempts.status),
  error_class = IF(job_attempts.finished_at IS NULL, VALUES(error_class), job_attempts.error_class),
  error = IF(job_attempts.finished_at IS NULL, VALUES(error), job_attempts.error),
  duration_ms = IF(job_attempts.finished_at IS NULL, VALUES(duration_ms), job_attempts.duration_ms),
  finished_at = IF(job_attempts.finished_at IS NULL, VALUES(finished_at), job_attempts.finished_at)
