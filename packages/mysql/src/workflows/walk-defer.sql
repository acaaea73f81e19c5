-- Nodes an outcome batch finished whose children did not fit the transaction's walk budget: put on
-- the walk queue (walk_pending), where the next walker with room takes them (any outcome
-- transaction, or the reconciler's sweep). Only finished nodes not queued already.
-- FORCE INDEX (PRIMARY): by the nodes' keys, without weighing the other indexes for the list of
-- pairs (walk-finished-check.sql).
-- Keyed by the runs' partitions (docs/sharding.md).
-- Parameters: partitions (list), rows ((workflow_id, node_id) list)
-- Returns: affected rows
UPDATE workflow_nodes FORCE INDEX (PRIMARY)
   SET walk_pending = 1
 WHERE `partition` IN (?) AND (workflow_id, node_id) IN (?) AND walk_pending IS NULL
   AND state IN ('succeeded', 'dead', 'cancelled', 'skipped', 'upstream_failed')
