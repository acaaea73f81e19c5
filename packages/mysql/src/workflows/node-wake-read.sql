-- The rows node-wake-select.sql locked, by primary key: what their end needs.
-- Parameters: ids (list)
-- Returns: rows of (id, attempt, lane, workflow_id, node_id, partition, target)
SELECT id, attempt, lane, workflow_id, node_id, `partition`, target
  FROM jobs
 WHERE id IN (?) AND state = 'pending'
