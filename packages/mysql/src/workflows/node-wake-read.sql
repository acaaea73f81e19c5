-- The rows node-wake-select.sql locked, by primary key: what their end needs.
-- Keyed by the partitions node-wake-select.sql read with them (docs/sharding.md).
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, attempt, lane, workflow_id, node_id, partition, target)
SELECT id, attempt, lane, workflow_id, node_id, `partition`, target
  FROM jobs
 WHERE `partition` IN (?) AND id IN (?) AND state = 'pending'
