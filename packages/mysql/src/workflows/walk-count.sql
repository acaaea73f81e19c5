-- The walk, one step: the children of a batch of newly finished parents count them off, one
-- statement for the batch. The derived table groups the parents' edges by child, so a child with
-- many parents in the batch is updated once, by their number (a 100,000-parent fan-in is one row
-- update per batch, not one per parent). Only waiting children count: one cancelled or finished
-- already has nothing to wait for. step_token marks every child counted here, for walk-decide.sql
-- (each assignment reads only its own column: a multi-table UPDATE has no assignment order).
-- The parents are their own rows (locked by this transaction: walk-finish-nodes.sql or
-- walk-pending-select.sql), read by their keys with their partition, and each table is joined on
-- `partition` too: no derived table of literal rows, which vtgate refuses in an UPDATE on a
-- sharded table, and every table keyed by the runs' partitions, so vtgate merges the statement
-- into one route to the shard that holds them (docs/sharding.md, D56). A parent's state says how
-- it counts: failed unless it succeeded or was skipped.
-- The edges are read by the parent's key (FORCE INDEX (PRIMARY)): from a fresh run's statistics
-- the optimizer takes workflow_edges_by_child by the run alone, a scan of the run's edges per batch.
-- after_id and upto_id bound the children told: ('', NULL) all of them; a wide parent's slice
-- (workflow-walk.ts) is (walk_after, its last child], and alone in the step, whose one row the
-- optimizer reads as constants: a range of the edges' primary key, the slice only.
-- Inside the derived table the parents' rows come first (STRAIGHT_JOIN): with the statistics
-- of a table that just grew (a map's items arrive faster than InnoDB recalculates them), the
-- optimizer read every edge first and looked the batch up in them, per batch (docs/performance.md).
-- Parameters: after_id, upto_id, upto_id, partitions (list), parents ((workflow_id, node_id) list),
--   step_token, partitions (list)
-- Returns: affected rows
UPDATE workflow_nodes c
  JOIN (SELECT e.`partition`, e.workflow_id, e.child_id, COUNT(*) AS n,
               SUM(p.state NOT IN ('succeeded', 'skipped')) AS failed, SUM(p.state = 'skipped') AS skipped
          FROM workflow_nodes p FORCE INDEX (PRIMARY)
          STRAIGHT_JOIN workflow_edges e FORCE INDEX (PRIMARY)
                ON e.workflow_id = p.workflow_id AND e.parent_id = p.node_id AND e.`partition` = p.`partition`
                AND e.child_id > ? AND (? IS NULL OR e.child_id <= ?)
         WHERE p.`partition` IN (?) AND (p.workflow_id, p.node_id) IN (?)
         GROUP BY e.`partition`, e.workflow_id, e.child_id) d
    ON c.workflow_id = d.workflow_id AND c.node_id = d.child_id AND c.`partition` = d.`partition`
   SET c.unfinished_parents = IF(c.unfinished_parents > d.n, c.unfinished_parents - d.n, 0),
       c.failed_parents = c.failed_parents + d.failed,
       c.skipped_parents = c.skipped_parents + d.skipped,
       c.step_token = ?
 WHERE c.`partition` IN (?) AND c.state = 'waiting'
