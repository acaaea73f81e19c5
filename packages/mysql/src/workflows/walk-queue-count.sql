-- The walk queue's length, for its gauge: finished nodes whose children are not all told yet
-- (deferred past a walk's budget or propagation bound, or wide parents between slices). A range of
-- workflow_nodes_unwalked, which holds entries only for such nodes.
-- Parameters: none
-- Returns: rows of (n), one
SELECT COUNT(*) AS n
  FROM workflow_nodes
 WHERE walk_pending = 1
