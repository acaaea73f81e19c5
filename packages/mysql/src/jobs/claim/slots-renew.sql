-- Renews the tenant slots held by an executor's calls together with their claim leases, so a
-- slot frees itself when its holder's lease would have run out.
-- Parameters: lease_seconds, rows ((tenant_id, slot, job_id, attempt) list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE tenant_slots
   SET expires_at = :now + INTERVAL ? SECOND
 WHERE (tenant_id, slot, job_id, attempt) IN (?)
