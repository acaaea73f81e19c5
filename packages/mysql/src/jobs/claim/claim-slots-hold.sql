-- Marks the slots taken by a claim with their holder (job, attempt) and the claim's lease.
-- Parameters: rows (derived: tenant_id, slot, job_id, attempt), lease_seconds
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE tenant_slots s
  JOIN (:rows) v ON s.tenant_id = v.tenant_id AND s.slot = v.slot
   SET s.job_id = v.job_id, s.attempt = v.attempt, s.expires_at = :now + INTERVAL ? SECOND
