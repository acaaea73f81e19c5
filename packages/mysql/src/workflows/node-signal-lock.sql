-- A signalled wait node's job, locked: the node waker locks the same row (SKIP LOCKED) before it
-- ends a timed-out wait, so a signal and the timeout take turns on it, and the second finds it ended.
-- Keyed by the run's partition (its node jobs').
-- Parameters: partition, id
-- Returns: rows of (id, attempt, state, lane, workflow_id, node_id)
SELECT id, attempt, state, lane, workflow_id, node_id, `partition`
  FROM jobs
 WHERE `partition` = ? AND id = ?
   FOR UPDATE
