-- Dispatches up to `limit` ready nodes of a run to pending, in node order; their jobs are inserted
-- next (node-jobs-insert-run.sql). A single-table UPDATE with ORDER BY and LIMIT (portable).
-- Keyed by the run's partition (docs/sharding.md): one shard through vtgate.
-- Parameters: partition, workflow_id, limit
-- Returns: affected rows
UPDATE workflow_nodes
   SET state = 'pending'
 WHERE `partition` = ? AND workflow_id = ? AND state = 'ready'
 ORDER BY node_id
 LIMIT ?
