-- Free concurrency slots of one tenant, locked for this claim (one part of a UNION ALL, one part
-- per limited tenant in the batch). Walks tenant_slots_free (tenant_id, expires_at): free slots
-- (expires_at NULL, or a lease that ran out) without reading busy ones; slots other claimers are
-- taking right now are skipped, so claimers never wait on each other.
-- Parameters: tenant_id, max_concurrency, wanted
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (tenant_id, slot)
(SELECT tenant_id, slot
   FROM tenant_slots
  WHERE tenant_id = ? AND (expires_at IS NULL OR expires_at < :now) AND slot < ?
  LIMIT ?
    FOR UPDATE SKIP LOCKED)
