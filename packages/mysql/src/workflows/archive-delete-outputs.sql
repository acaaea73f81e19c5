-- Deletes one batch of an archived run's workflow_node_outputs rows, only if the run is marked archived (its
-- history copy is complete): a batch per statement, in primary-key order.
-- Keyed by the run's partition (one shard on Vitess, docs/sharding.md; a run's rows share it).
-- Parameters: partition, workflow_id, partition, workflow_id, limit
-- Returns: affected rows
DELETE FROM workflow_node_outputs
 WHERE `partition` = ? AND workflow_id = ?
   AND EXISTS (SELECT 1 FROM workflows w WHERE w.`partition` = ? AND w.id = ? AND w.archived_at IS NOT NULL)
 ORDER BY node_id
 LIMIT ?
