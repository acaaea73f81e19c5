-- The flow control holds of the jobs a claim takes, written under their keys' locks in the claim's
-- transaction on the global keyspace (before the shard's transaction starts the attempts), each
-- held by the attempt the claim opens (attempt + 1) until the claim's lease runs out. A job's old
-- hold (a claim that failed after its holds committed, a lost claim) is replaced.
-- Parameters: lease_seconds, rows (derived: job_id, attempt, tenant_id, flow_key)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
INSERT INTO flow_holds (job_id, attempt, tenant_id, flow_key, expires_at)
SELECT v.job_id, v.attempt, v.tenant_id, v.flow_key, :now + INTERVAL ? SECOND
  FROM (:rows) v
ON DUPLICATE KEY UPDATE
  attempt = VALUES(attempt), tenant_id = VALUES(tenant_id), flow_key = VALUES(flow_key),
  expires_at = VALUES(expires_at)
