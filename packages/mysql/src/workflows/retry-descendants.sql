-- One level of the descendants a retry resets: children of the frontier that did not succeed and
-- are not live (waiting, ready or finished without success), not yet marked by this retry's token.
-- Through the edges by parent key, in the order written (STRAIGHT_JOIN, FORCE INDEX: from fresh
-- statistics MariaDB reads the edges by the run alone, walk-count.sql, and MySQL starts from the
-- children, joining the whole run); locked, to be marked next (retry-mark.sql). The frontier is
-- one run's: its parents are a list on the edges' key (no derived table of literal rows, D56),
-- keyed by the run's partition (docs/sharding.md).
-- Parameters: partition, workflow_id, node_ids (list), step_token, limit
-- Returns: rows of (node_id)
SELECT STRAIGHT_JOIN DISTINCT c.node_id
  FROM workflow_edges e FORCE INDEX (PRIMARY)
  JOIN workflow_nodes c ON c.workflow_id = e.workflow_id AND c.node_id = e.child_id AND c.`partition` = e.`partition`
 WHERE e.`partition` = ? AND e.workflow_id = ? AND e.parent_id IN (?)
   AND c.state IN ('waiting', 'ready', 'dead', 'upstream_failed', 'skipped', 'cancelled')
   AND (c.step_token IS NULL OR c.step_token <> ?)
 LIMIT ?
   FOR UPDATE
