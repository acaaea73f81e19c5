-- Which of the nodes walk-finish-nodes.sql was given it finished, when it matched fewer rows than it
-- was given (a node cancelled or reset meanwhile): by primary key, under the locks the update took.
-- Parameters: rows ((workflow_id, node_id) list), step_token
-- Returns: rows of (workflow_id, node_id, state)
SELECT workflow_id, node_id, state
  FROM workflow_nodes
 WHERE (workflow_id, node_id) IN (?) AND step_token = ?
