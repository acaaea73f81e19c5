-- Appended to the node job inserts (node-jobs-insert-run.sql, walk-node-jobs-insert.sql): a node
-- re-run by an operator's retry whose old job row is still here (dead or cancelled, not archived
-- yet) gets that row back as a new attempt group, like a redrive: same id, so the same
-- Idempotency-Key; attempt keeps counting (it is the fencing token); a full budget of attempts. A
-- revived sleep or wait is due at its wake time again (the insert's run_at: now for a call). A
-- live or succeeded job is left alone, so a repeat is still a no-op. A job cancelled while held (by
-- its run's cancel, or through job-api, during a pause) comes back unheld: if its run is still
-- paused, the reconciler's sweep holds it again (node-jobs-hold.sql). A map node's job still
-- pending (parked while the node waited on its items, map-expand.ts) is due at once: the walk has
-- just decided the node, and the node waker ends it. state is assigned last: the
-- assignments of ON DUPLICATE KEY UPDATE read the values the earlier ones wrote.
ON DUPLICATE KEY UPDATE
  attempt_group = IF(jobs.state IN ('dead', 'cancelled'), jobs.attempt_group + 1, jobs.attempt_group),
  max_attempts = IF(jobs.state IN ('dead', 'cancelled'), jobs.attempt + VALUES(max_attempts) - VALUES(attempt),
                    jobs.max_attempts),
  run_at = IF(jobs.state IN ('dead', 'cancelled') OR (jobs.state = 'pending' AND jobs.lane = 'map'),
              VALUES(run_at), jobs.run_at),
  finished_at = IF(jobs.state IN ('dead', 'cancelled'), NULL, jobs.finished_at),
  cancel_requested = IF(jobs.state IN ('dead', 'cancelled'), 0, jobs.cancel_requested),
  held = IF(jobs.state IN ('dead', 'cancelled'), 0, jobs.held),
  updated_at = IF(jobs.state IN ('dead', 'cancelled'), NOW(3), jobs.updated_at),
  state = IF(jobs.state IN ('dead', 'cancelled'), 'pending', jobs.state)
