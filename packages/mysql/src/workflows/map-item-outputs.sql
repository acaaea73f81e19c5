-- A map node's items' outputs in index order (node id order), null for an item that left none.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: partition, workflow_id, first_node_id, last_node_id
-- Returns: rows of (node_id, output)
SELECT n.node_id, o.output
  FROM workflow_nodes n
  LEFT JOIN workflow_node_outputs o ON o.workflow_id = n.workflow_id AND o.node_id = n.node_id
       AND o.`partition` = n.`partition`
 WHERE n.`partition` = ? AND n.workflow_id = ? AND n.node_id BETWEEN ? AND ?
 ORDER BY n.node_id
