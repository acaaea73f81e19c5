-- Locks one job for a job-api write (cancel, heartbeat, complete) and reads what the decision
-- needs (and what a completion sets off, follow-ups.ts). By primary key, so it waits only on
-- that job's row; keyed by the partition the id names (docs/sharding.md), so through vtgate it goes
-- to that partition's shard. A job stored before the key may sit in another partition than its id
-- names (D54): the lock misses it, and job-control.ts locks again with its row's (control-partition.sql).
-- Parameters: partition, id
-- workflow_id and node_id: a node job's completion keeps its output as the node's (node-outputs.ts);
-- lane 'workflow': a scheduled workflow's occurrence job, whose cancel cancels its run.
-- lane, trace_context: the span of a cancel or completion, in the occurrence's trace.
-- Returns: rows of (tenant_id, state, attempt, max_attempts, retry, claimed_by, cancel_requested, deadline_at, lease_expires_at, task_id, has_callbacks, counts_failures, workflow_id, node_id, partition, lane, trace_context)
SELECT tenant_id, state, attempt, max_attempts, retry, claimed_by, cancel_requested,
       deadline_at, lease_expires_at, task_id, callbacks IS NOT NULL AS has_callbacks, counts_failures,
       workflow_id, node_id, `partition`, lane, trace_context
  FROM jobs
 WHERE `partition` = ? AND id = ?
   FOR UPDATE
