-- After one slice of a wide parent's children was told: the parent stays on the walk queue with its
-- cursor at the slice's last child, or leaves it when that was the last slice. Conditional on the
-- cursor the slice started from (the row is locked by this transaction, by walk-finish-nodes.sql or
-- walk-pending-select.sql): zero rows means another walker moved it, and the transaction is rolled
-- back rather than tell a child twice.
-- Keyed by the run's partition (docs/sharding.md).
-- Parameters: upto_id (NULL: the last slice), upto_id, partition, workflow_id, node_id, walk_after before
--   the slice
-- Returns: affected rows
UPDATE workflow_nodes
   SET walk_pending = IF(? IS NULL, NULL, 1), walk_after = ?
 WHERE `partition` = ? AND workflow_id = ? AND node_id = ? AND walk_after <=> ?
