-- Applies a batch of outcomes, each row fenced by its claim's attempt and state 'running'.
-- v.next is succeeded | dead | failed | cancelled | pending (a retry, or a give-back at shutdown)
-- | parked (the target answered 202 and completes through job-api): no executor holds it,
-- lease_expires_at is its heartbeat timeout and deadline_at the time by which it must complete
-- (the reconciler's contract, docs/recovery.md).
-- A cancel requested while the call ran turns a retry, give-back or park into 'cancelled'.
-- A give-back (given_back = 1) raises max_attempts by one: the attempt number is the fencing token
-- and cannot go back, so the cap moves instead, and the given-back attempt does not count.
-- Assignments never read a column another assignment writes (multi-table UPDATE has no order).
-- Parameters: rows (derived: id, attempt, next, last_status, last_error, delay_ms, given_back, heartbeat_s, deadline_s)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs j
  JOIN (:rows) v ON j.id = v.id AND j.attempt = v.attempt
   SET j.last_status = v.last_status,
       j.last_error = v.last_error,
       j.max_attempts = j.max_attempts + v.given_back,
       j.run_at = IF(v.next = 'pending', :now + INTERVAL v.delay_ms * 1000 MICROSECOND, j.run_at),
       j.deadline_at = IF(v.next = 'parked' AND j.cancel_requested = 0, :now + INTERVAL v.deadline_s SECOND, NULL),
       j.lease_expires_at = IF(v.next = 'parked' AND j.cancel_requested = 0,
                               GREATEST(COALESCE(j.lease_expires_at, :now), :now + INTERVAL v.heartbeat_s SECOND),
                               NULL),
       j.finished_at = IF(v.next IN ('pending', 'parked') AND j.cancel_requested = 0, NULL, :now),
       j.claimed_by = NULL,
       j.updated_at = :now,
       j.state = CASE
                   WHEN v.next NOT IN ('pending', 'parked') THEN v.next
                   WHEN j.cancel_requested = 1 THEN 'cancelled'
                   WHEN v.next = 'parked' THEN 'running'
                   ELSE 'pending'
                 END
 WHERE j.state = 'running'
