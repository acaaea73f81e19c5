-- Marks nodes as part of one retry's reset set.
-- Parameters: step_token, workflow_id, node_ids (list)
-- Returns: affected rows
UPDATE workflow_nodes
   SET step_token = ?
 WHERE workflow_id = ? AND node_id IN (?)
