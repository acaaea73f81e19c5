-- The size of a map node's items' outputs (a range of the outputs' primary key): whether they fit
-- the node's own output as one array.
-- Parameters: workflow_id, first_node_id, last_node_id
-- Returns: one row of (bytes)
SELECT COALESCE(SUM(LENGTH(output)), 0) AS bytes
  FROM workflow_node_outputs
 WHERE workflow_id = ? AND node_id BETWEEN ? AND ?
