-- Applies a batch of outcomes, each row fenced by its claim's attempt and state 'running'.
-- A row's next state is succeeded | dead | failed | cancelled | pending (a retry, or a give-back
-- at shutdown) | running (a park: the target answered 202 and completes through job-api): no
-- executor holds it, lease_expires_at is its heartbeat timeout and deadline_at the time by which it
-- must complete (the reconciler's contract, docs/recovery.md).
-- A cancel requested while the call ran turns a retry, give-back or park into 'cancelled'.
-- A give-back raises max_attempts by one: the attempt number is the fencing token and cannot go
-- back, so the cap moves instead, and the given-back attempt does not count.
-- One single-table UPDATE keyed by the batch's partitions (the shard key: through vtgate it goes
-- to one shard; an UPDATE joined to a derived table of rows it refuses, D57). Each row takes its
-- values from a CASE on its id per column; a CASE lists only the rows whose value is not its ELSE
-- (the delay only retries, the deadline and heartbeat only parks, the raise only give-backs), so a
-- row compares its id with about as many ids per CASE as the batch has rows of that kind.
-- A single-table UPDATE assigns left to right, each assignment reading the values the earlier
-- ones wrote: `state` first, and the columns after it read the new state (running: parked).
-- Parameters: :cases_next, :cases_status, :cases_error, :cases_given_back, :cases_delay,
--   :cases_deadline, :cases_heartbeat ((id, value) pairs), partitions (list), ids (list),
--   (id, attempt) pairs (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET state = IF(cancel_requested = 1,
                  IF((CASE id :cases_next END) IN ('pending', 'running'), 'cancelled', CASE id :cases_next END),
                  CASE id :cases_next END),
       last_status = CASE id :cases_status ELSE NULL END,
       last_error = CASE id :cases_error ELSE NULL END,
       max_attempts = max_attempts + CASE id :cases_given_back ELSE 0 END,
       run_at = IF(state = 'pending', :now + INTERVAL (CASE id :cases_delay ELSE 0 END) * 1000 MICROSECOND, run_at),
       deadline_at = IF(state = 'running', :now + INTERVAL (CASE id :cases_deadline ELSE 0 END) SECOND, NULL),
       lease_expires_at = IF(state = 'running',
                             GREATEST(COALESCE(lease_expires_at, :now),
                                      :now + INTERVAL (CASE id :cases_heartbeat ELSE 0 END) SECOND),
                             NULL),
       finished_at = IF(state IN ('pending', 'running'), NULL, :now),
       claimed_by = NULL,
       updated_at = :now
 WHERE `partition` IN (?) AND id IN (?) AND (id, attempt) IN (?) AND state = 'running'
