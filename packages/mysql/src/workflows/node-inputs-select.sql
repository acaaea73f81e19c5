-- Of the node jobs a claim took, the nodes that asked for their parents' outputs (inputs =
-- 'parents'), by primary key. Run by the executor only for claims that took node jobs.
-- Parameters: rows ((workflow_id, node_id) list)
-- Returns: rows of (workflow_id, node_id, parent_count)
SELECT workflow_id, node_id, parent_count
  FROM workflow_nodes
 WHERE (workflow_id, node_id) IN (?) AND inputs = 'parents'
