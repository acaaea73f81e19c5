-- Calls in flight per flow control key, counted from its holds (flow_holds, migration 0063), read
-- under the keys' locks: a claim that took a job of a key committed its hold before it let the key
-- go, so the job is counted before its attempt starts. Not the running job rows: on Vitess those
-- are on every shard (docs/sharding.md). `expired`: holds whose lease ran out (a claim that failed
-- after its holds committed, an executor gone), which count no more and are deleted when seen
-- (flow-holds-expire.sql). One range of flow_holds_key (tenant_id, flow_key, expires_at) per key.
-- Parameters: keys ((tenant_id, flow_key) list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (tenant_id, flow_key, n, expired)
SELECT tenant_id, flow_key, SUM(expires_at >= :now) AS n, SUM(expires_at < :now) AS expired
  FROM flow_holds
 WHERE (tenant_id, flow_key) IN (?)
 GROUP BY tenant_id, flow_key
