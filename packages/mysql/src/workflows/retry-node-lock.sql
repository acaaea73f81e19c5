-- The node an operator retries, locked.
-- Parameters: workflow_id, node_id
SELECT node_id, state
  FROM workflow_nodes
 WHERE workflow_id = ? AND node_id = ?
   FOR UPDATE
