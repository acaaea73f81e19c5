-- An ended run's nodes that have no job yet (waiting, or ready and held) are cancelled: one range of
-- workflow_nodes_by_state per run and state.
-- Parameters: ids (list)
-- Returns: affected rows
UPDATE workflow_nodes
   SET state = 'cancelled', finished_at = NOW(3), walk_pending = NULL
 WHERE workflow_id IN (?) AND state IN ('waiting', 'ready')
