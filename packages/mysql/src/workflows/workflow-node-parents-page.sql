-- A page of one node's parents in parent id order, after a parent id, with their outputs: the list a
-- fan-in whose parents' outputs do not fit in its call pages through (docs/workflows.md). The
-- child's entries of workflow_edges_by_child are in parent id order (the primary key's columns
-- follow the secondary's), so the page is one range read, each parent a primary-key probe.
-- Parameters: workflow_id, child_id, after_parent_id, limit
-- Returns: rows of (node_id, state, attempt, job_id, trigger_rule, inputs, finished_at, job_state, job_attempt, output)
SELECT n.node_id, n.state, n.attempt, n.job_id, n.trigger_rule, n.inputs, n.finished_at, j.state AS job_state,
       j.attempt AS job_attempt, o.output
  FROM workflow_edges e
  JOIN workflow_nodes n ON n.workflow_id = e.workflow_id AND n.node_id = e.parent_id
  LEFT JOIN jobs j ON n.state = 'pending' AND j.id = n.job_id
  LEFT JOIN workflow_node_outputs o ON o.workflow_id = n.workflow_id AND o.node_id = n.node_id
 WHERE e.workflow_id = ? AND e.child_id = ? AND e.parent_id > ?
 ORDER BY e.parent_id
 LIMIT ?
