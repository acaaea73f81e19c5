-- The parents' outputs of the nodes whose inputs fit in one request (node-inputs-sizes.sql said so),
-- by the same indexes. A parent with no kept output (skipped, no body) comes back with NULL.
-- Parameters: rows ((workflow_id, child_id) list)
-- Returns: rows of (workflow_id, child_id, parent_id, output)
SELECT e.workflow_id, e.child_id, e.parent_id, o.output
  FROM workflow_edges e
  LEFT JOIN workflow_node_outputs o ON o.workflow_id = e.workflow_id AND o.node_id = e.parent_id
 WHERE (e.workflow_id, e.child_id) IN (?)
