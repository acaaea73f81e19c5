-- The walk, one step: how the children of a batch of newly finished parents count them off, read
-- before walk-count.sql writes it (two statements for the batch: an UPDATE joined to a derived
-- table, the one-statement form, is refused by vtgate v24 on a sharded table, VT13001 "pushed wrong
-- predicate to the join", and a derived table in an UPDATE meets the tablet's row limit: D58).
-- Grouped by child, so a child with many parents in the batch counts them all at once (a
-- 100,000-parent fan-in is one row per batch, not one per parent). A parent's state says how it
-- counts: failed unless it succeeded or was skipped. The parents are locked by this transaction
-- (walk-finish-nodes.sql or walk-pending-select.sql) and the edges never change, so the counts
-- hold until walk-count.sql. No child's state is read here: walk-count.sql keeps to the children
-- waiting when it locks them (a retry may have made one waiting again meanwhile).
-- The parents are their own rows, read by their keys with their partition, and every table is
-- joined on `partition`: one route to the shard that holds the runs (docs/sharding.md, D56).
-- The edges are read by the parent's key (FORCE INDEX (PRIMARY)): from a fresh run's statistics
-- the optimizer takes workflow_edges_by_child by the run alone, a scan of the run's edges per batch.
-- The parents' rows come first (STRAIGHT_JOIN): with the statistics of a table that just grew (a
-- map's items arrive faster than InnoDB recalculates them), the optimizer read every edge first
-- and looked the batch up in them, per batch (docs/performance.md). The child's row by its primary
-- key, for its job id (the key of walk-count.sql's cases; fixed at submission).
-- after_id and upto_id bound the children told: ('', NULL) all of them; a wide parent's slice
-- (workflow-walk.ts) is (walk_after, its last child], and alone in the step, whose one row the
-- optimizer reads as constants: a range of the edges' primary key, the slice only.
-- Parameters: after_id, upto_id, upto_id, partitions (list), parents ((workflow_id, node_id) list)
-- Returns: workflow_id, node_id, job_id, n, failed, skipped (one row per child)
SELECT STRAIGHT_JOIN c.workflow_id, c.node_id, c.job_id, COUNT(*) AS n,
       SUM(p.state NOT IN ('succeeded', 'skipped')) AS failed, SUM(p.state = 'skipped') AS skipped
  FROM workflow_nodes p FORCE INDEX (PRIMARY)
  JOIN workflow_edges e FORCE INDEX (PRIMARY)
       ON e.workflow_id = p.workflow_id AND e.parent_id = p.node_id AND e.`partition` = p.`partition`
       AND e.child_id > ? AND (? IS NULL OR e.child_id <= ?)
  JOIN workflow_nodes c FORCE INDEX (PRIMARY)
       ON c.workflow_id = e.workflow_id AND c.node_id = e.child_id AND c.`partition` = e.`partition`
 WHERE p.`partition` IN (?) AND (p.workflow_id, p.node_id) IN (?)
 GROUP BY c.workflow_id, c.node_id, c.job_id
