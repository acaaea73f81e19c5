-- The node an operator retries, locked.
-- Parameters: workflow_id, node_id
-- Returns: rows of (node_id, state); zero or one row
SELECT node_id, state
  FROM workflow_nodes
 WHERE workflow_id = ? AND node_id = ?
   FOR UPDATE
