-- Calls in flight per flow control key (jobs running with it), read under the keys' locks: a
-- claim that took a job of a key committed before it let the key go, so its jobs are counted.
-- One range of jobs_flow_running (tenant_id, flow_running) per key.
-- Parameters: keys ((tenant_id, flow_key) list)
-- Returns: rows of (tenant_id, flow_key, n)
SELECT tenant_id, flow_running AS flow_key, COUNT(*) AS n
  FROM jobs
 WHERE (tenant_id, flow_running) IN (?)
 GROUP BY tenant_id, flow_running
