-- Deletes the holds of locked keys whose lease ran out (flow-running.sql saw some): their attempt
-- never started, or its executor is gone. Under the keys' locks, in the claim's transaction on the
-- global keyspace.
-- Parameters: keys ((tenant_id, flow_key) list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
DELETE FROM flow_holds
 WHERE (tenant_id, flow_key) IN (?) AND expires_at < :now
