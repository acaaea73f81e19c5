-- Which of the nodes walk-finish-nodes.sql was given it finished (not all of them when a node was
-- cancelled or reset meanwhile), with how many children each has, for the walk's budget: by primary
-- key, under the locks the update took.
-- Parameters: rows ((workflow_id, node_id) list), step_token
-- Returns: rows of (workflow_id, node_id, state, child_count, walk_after)
SELECT workflow_id, node_id, state, child_count, walk_after
  FROM workflow_nodes
 WHERE (workflow_id, node_id) IN (?) AND step_token = ?
