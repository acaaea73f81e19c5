-- A page of the dependencies whose parent is in one page of a run's nodes (parent ids
-- first..last), after an (parent, child) cursor: a range of the primary key in key order.
-- Keyed by the run's partition (one shard on Vitess, docs/sharding.md; a run's rows share it).
-- Parameters: partition, workflow_id, first_parent_id, last_parent_id, after_parent_id, after_parent_id, after_child_id, limit
-- Returns: rows of (parent_id, child_id)
SELECT parent_id, child_id
  FROM workflow_edges
 WHERE `partition` = ? AND workflow_id = ? AND parent_id >= ? AND parent_id <= ?
   AND (parent_id > ? OR (parent_id = ? AND child_id > ?))
 ORDER BY parent_id, child_id
 LIMIT ?
