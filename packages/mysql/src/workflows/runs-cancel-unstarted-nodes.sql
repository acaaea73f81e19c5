-- An ended run's nodes that have no job yet (waiting, or ready and held) are cancelled: one range of
-- workflow_nodes_by_state per run and state.
-- Keyed by the runs' partitions (docs/sharding.md): one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE workflow_nodes
   SET state = 'cancelled', finished_at = NOW(3), walk_pending = NULL
 WHERE `partition` IN (?) AND workflow_id IN (?) AND state IN ('waiting', 'ready')
