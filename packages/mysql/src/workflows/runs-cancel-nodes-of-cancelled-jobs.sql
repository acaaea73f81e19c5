-- The nodes whose jobs runs-cancel-pending-jobs.sql cancelled follow them.
-- Keyed by the runs' partitions, which their node jobs share, and joined on it (docs/sharding.md):
-- one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE workflow_nodes n
  JOIN jobs j ON j.id = n.job_id AND j.`partition` = n.`partition`
   SET n.state = 'cancelled', n.finished_at = NOW(3)
 WHERE n.`partition` IN (?) AND n.workflow_id IN (?) AND n.state = 'pending' AND j.state = 'cancelled'
