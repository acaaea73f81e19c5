-- The nodes whose jobs runs-cancel-pending-jobs.sql cancelled follow them.
-- Parameters: ids (list)
-- Returns: affected rows
UPDATE workflow_nodes n
  JOIN jobs j ON j.id = n.job_id
   SET n.state = 'cancelled', n.finished_at = NOW(3)
 WHERE n.workflow_id IN (?) AND n.state = 'pending' AND j.state = 'cancelled'
