-- Marks nodes as part of one retry's reset set.
-- Keyed by the run's partition (docs/sharding.md).
-- Parameters: step_token, partition, workflow_id, node_ids (list)
-- Returns: affected rows
UPDATE workflow_nodes
   SET step_token = ?
 WHERE `partition` = ? AND workflow_id = ? AND node_id IN (?)
