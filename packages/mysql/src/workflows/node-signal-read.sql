-- A signal's node, with its run, by primary key (read before the job's lock: the lock is what fences).
-- Parameters: workflow_id, node_id
-- Returns: rows of (state, lane, job_id, signal_hash, run_state, tenant_id)
SELECT n.state, n.lane, n.job_id, n.signal_hash, w.state AS run_state, w.tenant_id
  FROM workflow_nodes n
  JOIN workflows w ON w.id = n.workflow_id
 WHERE n.workflow_id = ? AND n.node_id = ?
