-- The parent counts a reset node starts again from: parents in the reset set (marked by the token)
-- or still live are unfinished; the others count by how they finished. Through
-- workflow_edges_by_child.
-- Parameters: step_token, step_token, step_token, workflow_id, node_ids (list)
-- Returns: rows of (child_id, unfinished, failed, skipped)
SELECT e.child_id,
       SUM(p.step_token = ? OR p.state IN ('waiting', 'ready', 'pending')) AS unfinished,
       SUM(NOT (p.step_token <=> ?) AND p.state IN ('dead', 'upstream_failed', 'cancelled')) AS failed,
       SUM(NOT (p.step_token <=> ?) AND p.state = 'skipped') AS skipped
  FROM workflow_edges e
  JOIN workflow_nodes p ON p.workflow_id = e.workflow_id AND p.node_id = e.parent_id
 WHERE e.workflow_id = ? AND e.child_id IN (?)
 GROUP BY e.child_id
