-- An ended run's node jobs that are running have their cancel requested: the executor aborts the
-- call at its next lease renewal and records the job cancelled (docs/executor.md), and the walk
-- then cancels the node.
-- Keyed by the runs' partitions, which their node jobs share, and joined on it (docs/sharding.md):
-- one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs j
  JOIN workflow_nodes n ON j.id = n.job_id AND j.`partition` = n.`partition`
   SET j.cancel_requested = 1, j.updated_at = NOW(3)
 WHERE n.`partition` IN (?) AND n.workflow_id IN (?) AND n.state = 'pending' AND j.state = 'running'
