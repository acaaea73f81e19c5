-- An ended run's node jobs that have not started are cancelled (a cancelled job never fires). Fenced
-- by the job's state: one a claimer took meanwhile is running and handled by
-- runs-request-cancel-running.sql.
-- Keyed by the runs' partitions, which their node jobs share, and joined on it (docs/sharding.md):
-- one shard through vtgate.
-- Parameters: reason, partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs j
  JOIN workflow_nodes n ON j.id = n.job_id AND j.`partition` = n.`partition`
   SET j.state = 'cancelled', j.last_error = ?, j.finished_at = NOW(3), j.updated_at = NOW(3)
 WHERE n.`partition` IN (?) AND n.workflow_id IN (?) AND n.state = 'pending' AND j.state = 'pending'
