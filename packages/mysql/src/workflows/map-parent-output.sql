-- The output of the parent a map node maps over (primary key).
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: partition, workflow_id, node_id
-- Returns: zero or one row of (output)
SELECT output
  FROM workflow_node_outputs
 WHERE `partition` = ? AND workflow_id = ? AND node_id = ?
