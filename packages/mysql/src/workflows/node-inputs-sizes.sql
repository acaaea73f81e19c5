-- The parents of some nodes (each with at most MAX_INLINE_PARENTS of them) and the byte size of each
-- parent's output, through workflow_edges_by_child and the outputs' primary key: sizes only, so a
-- node whose parents do not fit in one request is never read into memory.
-- Parameters: rows ((workflow_id, child_id) list)
-- Returns: rows of (workflow_id, child_id, parent_id, bytes)
SELECT e.workflow_id, e.child_id, e.parent_id, LENGTH(o.output) AS bytes
  FROM workflow_edges e
  LEFT JOIN workflow_node_outputs o ON o.workflow_id = e.workflow_id AND o.node_id = e.parent_id
 WHERE (e.workflow_id, e.child_id) IN (?)
