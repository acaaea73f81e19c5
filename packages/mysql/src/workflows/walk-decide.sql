-- The walk, after walk-count.sql: the children counted in this step whose last parent finished
-- are decided by their trigger rule (the SQL form of triggerDecision in
-- packages/domain/src/decisions/workflow-nodes.ts; walk-agrees.property.test.ts checks they agree):
-- - to run: `pending` (its job is inserted next, walk-node-jobs-insert.sql), or `ready` when the
--   run is paused or has a maxParallel (dispatch is held; workflow-dispatch.sql releases it);
-- - skipped or upstream_failed, or cancelled when the run has ended: finished without a job, and
--   marked walk_pending so that the next step tells their own children.
-- Found again through the same edges (by parent key) and the step's token: the work is
-- proportional to the parents' out-degree, never a scan of the run. The join order and the edges'
-- index are fixed (STRAIGHT_JOIN, FORCE INDEX): from a fresh run's statistics the optimizer would
-- read the edges by the run alone (workflow_edges_by_child) or start from the workflows table, a
-- scan of the run, or of every run, per batch (docs/performance.md). No assignment reads a column
-- another assigns.
-- after_id and upto_id bound the children as in walk-count.sql (a wide parent's slice); the parents
-- are their own rows, read by key with their partition, and every table is joined on `partition`,
-- as in walk-count.sql (one route through vtgate, no literal rows: D56).
-- Inside the derived table the parents' rows come first too (STRAIGHT_JOIN): with the statistics
-- of a table that just grew (a map's items arrive faster than InnoDB recalculates them), the
-- optimizer read every edge first and looked the batch up in them, per batch (docs/performance.md).
-- Parameters: after_id, upto_id, upto_id, partitions (list), parents ((workflow_id, node_id) list),
--   partitions (list), step_token
-- Returns: affected rows
UPDATE (SELECT DISTINCT e.`partition`, e.workflow_id, e.child_id
          FROM workflow_nodes p FORCE INDEX (PRIMARY)
          STRAIGHT_JOIN workflow_edges e FORCE INDEX (PRIMARY)
                ON e.workflow_id = p.workflow_id AND e.parent_id = p.node_id AND e.`partition` = p.`partition`
                AND e.child_id > ? AND (? IS NULL OR e.child_id <= ?)
         WHERE p.`partition` IN (?) AND (p.workflow_id, p.node_id) IN (?)) d
       STRAIGHT_JOIN workflow_nodes c
             ON c.workflow_id = d.workflow_id AND c.node_id = d.child_id AND c.`partition` = d.`partition`
       STRAIGHT_JOIN workflows w FORCE INDEX (PRIMARY) ON w.id = c.workflow_id AND w.`partition` = c.`partition`
   SET c.state = CASE
                   WHEN w.state <> 'running' THEN 'cancelled'
                   WHEN c.trigger_rule = 'all_success' AND c.failed_parents > 0 THEN 'upstream_failed'
                   WHEN c.trigger_rule = 'all_success' AND c.skipped_parents > 0 THEN 'skipped'
                   WHEN c.trigger_rule = 'one_failed' AND c.failed_parents = 0 THEN 'skipped'
                   WHEN w.paused = 0 AND w.max_parallel IS NULL THEN 'pending'
                   ELSE 'ready'
                 END,
       c.walk_pending = IF(w.state <> 'running'
                           OR (c.trigger_rule = 'all_success' AND c.failed_parents + c.skipped_parents > 0)
                           OR (c.trigger_rule = 'one_failed' AND c.failed_parents = 0),
                           1, NULL),
       c.finished_at = IF(w.state <> 'running'
                          OR (c.trigger_rule = 'all_success' AND c.failed_parents + c.skipped_parents > 0)
                          OR (c.trigger_rule = 'one_failed' AND c.failed_parents = 0),
                          NOW(3), NULL)
 WHERE c.`partition` IN (?) AND c.step_token = ? AND c.state = 'waiting' AND c.unfinished_parents = 0
