-- A run's dependencies, at most a limit of them: a range of the primary key (workflow_id, ...).
-- Read by GET /v1/workflows/{id}/graph, only for runs small enough to draw.
-- Parameters: workflow_id, limit
-- Returns: rows of (parent_id, child_id)
SELECT parent_id, child_id
  FROM workflow_edges
 WHERE workflow_id = ?
 ORDER BY parent_id, child_id
 LIMIT ?
