-- A map's slice adds its items to the run's counts of nodes and edges (one edge each: item → map).
-- Parameters: nodes, edges, workflow_id
-- Returns: affected rows
UPDATE workflows
   SET node_count = node_count + ?, edge_count = edge_count + ?
 WHERE id = ?
