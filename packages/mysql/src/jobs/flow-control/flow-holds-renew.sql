-- Renews the flow control holds of an executor's calls together with their claim leases, so a
-- hold counts no more once its holder's lease would have run out. Fenced by the holder's attempt.
-- Parameters: lease_seconds, rows ((job_id, attempt) list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE flow_holds
   SET expires_at = :now + INTERVAL ? SECOND
 WHERE (job_id, attempt) IN (?)
