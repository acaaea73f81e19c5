-- In an outcome batch: the node jobs it sent back to pending (a retry, a give-back) whose run is
-- paused are held like the ones the pause held (node-jobs-hold.sql), in the same transaction, so a
-- retry never slips out of a pause; run_at keeps the retry's due time. Reading the run's row waits
-- for a pause being committed.
-- Keyed by the jobs' partitions, which their runs share, and joined on it (docs/sharding.md): one
-- shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs j
  JOIN workflows w ON w.id = j.workflow_id AND w.`partition` = j.`partition`
   SET j.held = 1
 WHERE j.`partition` IN (?) AND j.id IN (?) AND j.state = 'pending' AND w.paused = 1 AND w.state = 'running'
