-- Inserts the jobs of a run's pending nodes that have none (at submission: its roots), one
-- statement through workflow_nodes_by_state. The job id is the node's, fixed at submission, so a
-- repeat meets the jobs primary key and changes nothing (node-jobs-revive.sql is appended). The occurrence key is the job id:
-- task_id is NULL for node jobs, so (task_id, occurrence) does not key them; the node's state does.
-- attempt starts at the node's (a node re-run after its job was archived keeps counting up);
-- max_attempts is that plus the node's budget.
-- A node job copies its run's trace context: the run is one trace, its nodes' attempts spans of it.
-- The job copies its run's tags too (docs/tags.md); node-job-tags-run.sql indexes them.
-- A sleep or wait node's job is scheduled for (and due at) its wake time: a delay from now, or an
-- instant no earlier than now (node-wake.ts ends it then); a call node's, now.
-- Keyed by the run's partition, which its nodes and node jobs share (docs/sharding.md): one shard
-- through vtgate.
-- Parameters: partition, workflow_id
-- Returns: affected rows
INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, workflow_id, node_id, scheduled_for, priority,
                         lane, state, attempt, max_attempts, run_at, target, retry, created_at, updated_at,
                         flow_key, flow_parallelism, flow_rate, trace_context, tags, `partition`)
SELECT n.job_id, w.tenant_id, NULL, CONCAT('workflow:', LOWER(HEX(n.job_id))), 'workflow', n.workflow_id,
       n.node_id, GREATEST(NOW(3), COALESCE(n.wake_at, NOW(3) + INTERVAL COALESCE(n.wake_delay_ms, 0) * 1000 MICROSECOND)),
       n.priority, n.lane, 'pending', n.attempt, n.attempt + n.max_attempts,
       GREATEST(NOW(3), COALESCE(n.wake_at, NOW(3) + INTERVAL COALESCE(n.wake_delay_ms, 0) * 1000 MICROSECOND)),
       n.target, n.retry, NOW(3), NOW(3), n.flow_key, n.flow_parallelism, n.flow_rate,
       w.trace_context, w.tags, n.`partition`
  FROM workflow_nodes n
  JOIN workflows w ON w.id = n.workflow_id AND w.`partition` = n.`partition`
 WHERE n.`partition` = ? AND n.workflow_id = ? AND n.state = 'pending'
