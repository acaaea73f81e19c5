-- Takes a frontier read by walk-pending-select.sql off the walk queue (its rows are locked by it);
-- the same transaction tells their children.
-- FORCE INDEX (PRIMARY): by the nodes' keys, without weighing the other indexes for the list of
-- pairs (walk-finished-check.sql).
-- Keyed by the runs' partitions (docs/sharding.md).
-- Parameters: partitions (list), rows ((workflow_id, node_id) list)
-- Returns: affected rows
UPDATE workflow_nodes FORCE INDEX (PRIMARY)
   SET walk_pending = NULL
 WHERE `partition` IN (?) AND (workflow_id, node_id) IN (?) AND walk_pending = 1
