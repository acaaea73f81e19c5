-- Deletes the free slots past a tenant's (lowered or removed) limit. A busy one stays until its
-- call ends; claims never take it again (they only take slot < max_concurrency).
-- Parameters: tenant_id, max_concurrency (0 when unlimited)
-- Returns: affected rows
DELETE FROM tenant_slots WHERE tenant_id = ? AND slot >= ? AND job_id IS NULL
