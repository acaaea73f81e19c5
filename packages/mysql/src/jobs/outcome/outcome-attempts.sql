-- Writes the attempt rows of an outcome batch, once, when the attempts end (the open attempt of a
-- claim is read from the job row until then). The call happened whether or not the claim was still
-- current, so every write gets its row; when the row already exists and is closed (the reconciler
-- or job-api closed it first), the first close stands. An open row (a parked 202 attempt, or one
-- opened at the claim before migration 0040) is closed. finished_at is assigned last: the
-- assignments of ON DUPLICATE KEY UPDATE read the values the earlier ones wrote.
-- Parameters: rows (job_id, attempt, executor, started_at, status, error_class, error, duration_ms)
-- finished_at, the last value of each row, is the database clock NOW(3), or the instant a test
-- passes instead (outcomes.ts writes it into the rows).
-- Returns: affected rows
INSERT INTO job_attempts (job_id, attempt, executor, started_at, status, error_class, error, duration_ms,
                          finished_at)
VALUES :rows
ON DUPLICATE KEY UPDATE
  status = IF(finished_at IS NULL, VALUES(status), status),
  error_class = IF(finished_at IS NULL, VALUES(error_class), error_class),
  error = IF(finished_at IS NULL, VALUES(error), error),
  duration_ms = IF(finished_at IS NULL, VALUES(duration_ms), duration_ms),
  finished_at = IF(finished_at IS NULL, VALUES(finished_at), finished_at)
