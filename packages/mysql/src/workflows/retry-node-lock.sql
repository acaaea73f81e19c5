-- The node an operator retries, locked.
-- Keyed by the run's partition (docs/sharding.md).
-- Parameters: partition, workflow_id, node_id
-- Returns: rows of (node_id, state); zero or one row
SELECT node_id, state
  FROM workflow_nodes
 WHERE `partition` = ? AND workflow_id = ? AND node_id = ?
   FOR UPDATE
