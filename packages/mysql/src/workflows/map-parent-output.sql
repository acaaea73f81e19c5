-- The output of the parent a map node maps over (primary key).
-- Parameters: workflow_id, node_id
-- Returns: zero or one row of (output)
SELECT output
  FROM workflow_node_outputs
 WHERE workflow_id = ? AND node_id = ?
