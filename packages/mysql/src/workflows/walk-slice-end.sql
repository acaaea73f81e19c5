-- The last child of a wide parent's next slice: the limit-th child after the last one told, in the
-- edges' key order (a range of the primary key, limit entries). No row: the children left fit in
-- this slice, which is the parent's last.
-- Keyed by the run's partition (docs/sharding.md).
-- Parameters: partition, workflow_id, parent_id, after_id ('' before the first slice), limit - 1
-- Returns: rows of (child_id), at most one
SELECT child_id
  FROM workflow_edges
 WHERE `partition` = ? AND workflow_id = ? AND parent_id = ? AND child_id > ?
 ORDER BY child_id
 LIMIT 1 OFFSET ?
