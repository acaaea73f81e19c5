-- Whether a run has a node of that id (primary key).
-- Parameters: workflow_id, node_id
-- Returns: at most one row of (inputs)
SELECT inputs FROM workflow_nodes WHERE workflow_id = ? AND node_id = ?
