-- Frees the tenant slots of finished calls, each only if this claim still holds it.
-- Parameters: rows ((tenant_id, slot, job_id, attempt) list)
-- Returns: affected rows
UPDATE tenant_slots
   SET job_id = NULL, attempt = NULL, expires_at = NULL
 WHERE (tenant_id, slot, job_id, attempt) IN (?)
