-- A signal's node, with its run, by primary key (read before the job's lock: the lock is what fences).
-- Keyed by the run's partition, which its nodes and jobs share (docs/sharding.md).
-- Parameters: partition, workflow_id, node_id
-- Returns: rows of (state, lane, job_id, signal_hash, run_state, tenant_id)
SELECT n.state, n.lane, n.job_id, n.signal_hash, w.state AS run_state, w.tenant_id
  FROM workflow_nodes n
  JOIN workflows w ON w.id = n.workflow_id AND w.`partition` = n.`partition`
 WHERE n.`partition` = ? AND n.workflow_id = ? AND n.node_id = ?
