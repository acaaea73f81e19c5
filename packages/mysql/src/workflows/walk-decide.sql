-- The walk, after walk-count.sql: the children counted in this step whose last parent finished
-- are decided by their trigger rule (the SQL form of triggerDecision in
-- packages/domain/src/decisions/workflow-nodes.ts; walk-agrees.property.test.ts checks they agree):
-- - to run: `pending` (its job is inserted next, walk-node-jobs-insert.sql), or `ready` when the
--   run is paused or has a maxParallel (dispatch is held; workflow-dispatch.sql releases it);
-- - skipped or upstream_failed, or cancelled when the run has ended: finished without a job, and
--   marked walk_pending so that the next step tells their own children.
-- The children are the step's (walk-count-select.sql), by their keys, and the step's token: the
-- work is proportional to the parents' out-degree, never a scan of the run. Their run's row is read
-- by its primary key in a scalar subquery per assignment that needs it (CASE reads it once for most
-- rows), not joined: vtgate v24 runs an UPDATE joined to another table whose columns it assigns as
-- a SELECT and then an UPDATE per row (D58). No assignment reads a column another assigns.
-- Keyed by the runs' partitions, the run's row by its child's (docs/sharding.md): one route.
-- Parameters: partitions (list), children ((workflow_id, node_id) list), step_token
-- Returns: affected rows
UPDATE workflow_nodes c FORCE INDEX (PRIMARY)
   SET c.state = CASE
                   WHEN (SELECT w.state FROM workflows w FORCE INDEX (PRIMARY)
                          WHERE w.id = c.workflow_id AND w.`partition` = c.`partition`) <> 'running' THEN 'cancelled'
                   WHEN c.trigger_rule = 'all_success' AND c.failed_parents > 0 THEN 'upstream_failed'
                   WHEN c.trigger_rule = 'all_success' AND c.skipped_parents > 0 THEN 'skipped'
                   WHEN c.trigger_rule = 'one_failed' AND c.failed_parents = 0 THEN 'skipped'
                   WHEN (SELECT w.paused = 0 AND w.max_parallel IS NULL FROM workflows w FORCE INDEX (PRIMARY)
                          WHERE w.id = c.workflow_id AND w.`partition` = c.`partition`) THEN 'pending'
                   ELSE 'ready'
                 END,
       c.walk_pending = IF((SELECT w.state FROM workflows w FORCE INDEX (PRIMARY)
                             WHERE w.id = c.workflow_id AND w.`partition` = c.`partition`) <> 'running'
                           OR (c.trigger_rule = 'all_success' AND c.failed_parents + c.skipped_parents > 0)
                           OR (c.trigger_rule = 'one_failed' AND c.failed_parents = 0),
                           1, NULL),
       c.finished_at = IF((SELECT w.state FROM workflows w FORCE INDEX (PRIMARY)
                            WHERE w.id = c.workflow_id AND w.`partition` = c.`partition`) <> 'running'
                          OR (c.trigger_rule = 'all_success' AND c.failed_parents + c.skipped_parents > 0)
                          OR (c.trigger_rule = 'one_failed' AND c.failed_parents = 0),
                          NOW(3), NULL)
 WHERE c.`partition` IN (?) AND (c.workflow_id, c.node_id) IN (?) AND c.step_token = ? AND c.state = 'waiting'
   AND c.unfinished_parents = 0
