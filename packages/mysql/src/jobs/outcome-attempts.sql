-- Closes the attempt rows of an outcome batch. The call happened whether or not the claim was
-- still current, so every row is closed; a parked (202) attempt stays open (finished_at NULL)
-- until job-api's complete, or the reconciler's deadline, closes it.
-- Parameters: rows (derived: job_id, attempt, status, error_class, error, duration_ms, still_open)
UPDATE job_attempts a
  JOIN (:rows) v ON a.job_id = v.job_id AND a.attempt = v.attempt
   SET a.status = v.status,
       a.error_class = v.error_class,
       a.error = v.error,
       a.duration_ms = v.duration_ms,
       a.finished_at = IF(v.still_open = 1, NULL, NOW(3))
 WHERE a.finished_at IS NULL
