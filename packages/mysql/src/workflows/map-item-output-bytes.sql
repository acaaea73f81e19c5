-- The size of a map node's items' outputs (a range of the outputs' primary key): whether they fit
-- the node's own output as one array.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: partition, workflow_id, first_node_id, last_node_id
-- Returns: one row of (bytes)
SELECT COALESCE(SUM(LENGTH(output)), 0) AS bytes
  FROM workflow_node_outputs
 WHERE `partition` = ? AND workflow_id = ? AND node_id BETWEEN ? AND ?
