-- Writes the attempt rows of an outcome batch, once, when the attempts end (the open attempt of a
-- claim is read from the job row until then). The call happened whether or not the claim was still
-- current, so every write gets its row; when the row already exists and is closed (the reconciler
-- or job-api closed it first), the first close stands. An open row (a parked 202 attempt, or one
-- opened at the claim before migration 0040) is closed. finished_at is assigned last: the
-- assignments of ON DUPLICATE KEY UPDATE read the values the earlier ones wrote. Each row takes its
-- job's partition (the shard key, docs/sharding.md) from the job row, which the batch holds locked.
-- STRAIGHT_JOIN: the rows first, then each owner by its primary key; on a small table the optimizer
-- would otherwise scan an index that holds (id, `partition`) and probe the rows.
-- Keyed by the batch's partitions: through vtgate the read of the owners goes to one shard.
-- Parameters: rows (derived: job_id, attempt, executor, started_at, status, error_class, error, duration_ms),
--   partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, status, error_class, error, duration_ms,
                          finished_at, `partition`)
SELECT v.job_id, v.attempt, v.executor, v.started_at, v.status, v.error_class, v.error, v.duration_ms, :now,
       j.`partition`
  FROM (:rows) v
  STRAIGHT_JOIN jobs j ON j.id = v.job_id AND j.`partition` IN (?)
ON DUPLICATE KEY UPDATE
  status = IF(job_attempts.finished_at IS NULL, VALUES(status), job_attempts.status),
  error_class = IF(job_attempts.finished_at IS NULL, VALUES(error_class), job_attempts.error_class),
  error = IF(job_attempts.finished_at IS NULL, VALUES(error), job_attempts.error),
  duration_ms = IF(job_attempts.finished_at IS NULL, VALUES(duration_ms), job_attempts.duration_ms),
  finished_at = IF(job_attempts.finished_at IS NULL, VALUES(finished_at), job_attempts.finished_at)
