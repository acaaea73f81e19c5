-- A map's slice adds its items to the run's counts of nodes and edges (one edge each: item → map).
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: nodes, edges, partition, workflow_id
-- Returns: affected rows
UPDATE workflows
   SET node_count = node_count + ?, edge_count = edge_count + ?
 WHERE `partition` = ? AND id = ?
