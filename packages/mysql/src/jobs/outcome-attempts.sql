-- Closes the attempt rows of an outcome batch. The call happened whether or not the claim was
-- still current, so every row is closed, except a parked (202) attempt whose job the batch just
-- parked (running, no executor): it stays open until job-api's complete, or the reconciler's
-- deadline, closes it.
-- Parameters: rows (derived: job_id, attempt, status, error_class, error, duration_ms, parked)
UPDATE job_attempts a
  JOIN (:rows) v ON a.job_id = v.job_id AND a.attempt = v.attempt
  LEFT JOIN jobs j ON j.id = a.job_id AND j.attempt = a.attempt AND j.state = 'running' AND j.claimed_by IS NULL
   SET a.status = v.status,
       a.error_class = v.error_class,
       a.error = v.error,
       a.duration_ms = v.duration_ms,
       a.finished_at = IF(v.parked = 1 AND j.id IS NOT NULL, NULL, NOW(3))
 WHERE a.finished_at IS NULL
