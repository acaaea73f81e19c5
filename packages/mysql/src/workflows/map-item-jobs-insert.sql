-- The jobs of a slice of a map node's items, just stored pending: the range of their node ids
-- (`<map>~<index>`, zero-padded, so the slice is a range of the nodes' primary key). Columns as
-- node-jobs-insert-run.sql; the job id is the item node's, so each item keeps one Idempotency-Key.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: partition, workflow_id, first_node_id, last_node_id
-- Returns: affected rows
INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, workflow_id, node_id, scheduled_for, priority,
                  lane, state, attempt, max_attempts, run_at, target, retry, created_at, updated_at,
                  flow_key, flow_parallelism, flow_rate, trace_context, tags, `partition`)
SELECT STRAIGHT_JOIN n.job_id, w.tenant_id, NULL, CONCAT('workflow:', LOWER(HEX(n.job_id))), 'workflow', n.workflow_id,
       n.node_id, NOW(3), n.priority, n.lane, 'pending', n.attempt, n.attempt + n.max_attempts, NOW(3),
       n.target, n.retry, NOW(3), NOW(3), n.flow_key, n.flow_parallelism, n.flow_rate,
       w.trace_context, w.tags, n.`partition`
  FROM workflow_nodes n FORCE INDEX (PRIMARY)
  JOIN workflows w FORCE INDEX (PRIMARY) ON w.id = n.workflow_id AND w.`partition` = n.`partition`
 WHERE n.`partition` = ? AND n.workflow_id = ? AND n.node_id BETWEEN ? AND ? AND n.state = 'pending'
