-- Resume releases the jobs its pause held (node-jobs-hold.sql): they are claimable again at their
-- run_at, unchanged by the hold, so a job due during the pause is due at once, a retry's backoff
-- that outlasted the pause is still waited out, and a sleep or wait node's job keeps its wake time
-- (a resume does not cut a sleep short or a wait's timeout).
-- Keyed by the run's partition, which its nodes and node jobs share (docs/sharding.md).
-- Parameters: partition, workflow_id
-- Returns: affected rows
UPDATE jobs j
  JOIN workflow_nodes n ON j.id = n.job_id AND j.`partition` = n.`partition`
   SET j.held = 0, j.updated_at = NOW(3)
 WHERE n.`partition` = ? AND n.workflow_id = ? AND n.state = 'pending' AND j.state = 'pending' AND j.held = 1
