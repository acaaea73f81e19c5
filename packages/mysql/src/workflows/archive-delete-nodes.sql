-- Deletes one batch of an archived run's workflow_nodes rows, only if the run is marked archived (its
-- history copy is complete): a batch per statement, in primary-key order.
-- Parameters: workflow_id, workflow_id, limit
-- Returns: affected rows
DELETE FROM workflow_nodes
 WHERE workflow_id = ? AND EXISTS (SELECT 1 FROM workflows w WHERE w.id = ? AND w.archived_at IS NOT NULL)
 ORDER BY node_id
 LIMIT ?
