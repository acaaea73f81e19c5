-- The walk, one step: the children of a batch of newly finished parents count them off, one
-- statement for the batch. The derived table groups the parents' edges by child, so a child with
-- many parents in the batch is updated once, by their number (a 100,000-parent fan-in is one row
-- update per batch, not one per parent). Only waiting children count: one cancelled or finished
-- already has nothing to wait for. step_token marks every child counted here, for walk-decide.sql
-- (each assignment reads only its own column: a multi-table UPDATE has no assignment order).
-- The edges are read by the parent's key (FORCE INDEX (PRIMARY)): from a fresh run's statistics
-- the optimizer takes workflow_edges_by_child by the run alone, a scan of the run's edges per batch.
-- after_id and upto_id bound the children told: ('', NULL) all of them; a wide parent's slice
-- (workflow-walk.ts) is (walk_after, its last child], and alone in the derived table, whose one
-- row the optimizer reads as constants: a range of the edges' primary key, the slice only.
-- Inside the derived table the batch's rows come first too (STRAIGHT_JOIN): with the statistics
-- of a table that just grew (a map's items arrive faster than InnoDB recalculates them), the
-- optimizer read every edge first and looked the batch up in them, per batch (docs/performance.md).
-- Parameters: rows (derived: workflow_id, node_id, after_id, upto_id, failed, skipped), step_token
-- Returns: affected rows
UPDATE workflow_nodes c
  JOIN (SELECT e.workflow_id, e.child_id, COUNT(*) AS n, SUM(v.failed) AS failed, SUM(v.skipped) AS skipped
          FROM (:rows) v
          STRAIGHT_JOIN workflow_edges e FORCE INDEX (PRIMARY) ON e.workflow_id = v.workflow_id AND e.parent_id = v.node_id
                AND e.child_id > v.after_id AND (v.upto_id IS NULL OR e.child_id <= v.upto_id)
         GROUP BY e.workflow_id, e.child_id) d
    ON c.workflow_id = d.workflow_id AND c.node_id = d.child_id
   SET c.unfinished_parents = IF(c.unfinished_parents > d.n, c.unfinished_parents - d.n, 0),
       c.failed_parents = c.failed_parents + d.failed,
       c.skipped_parents = c.skipped_parents + d.skipped,
       c.step_token = ?
 WHERE c.state = 'waiting'
