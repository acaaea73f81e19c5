-- The oldest untagged job of one tenant of the walk, if it is due: what the tagger tags first, so
-- a tenant's new job is tagged in the next pass however many untagged due rows another tenant has
-- ahead of it in due order (docs/fair-share.md, D27). The tagger sends this once per tenant walked
-- (fair-tenants-walk.sql), joined by UNION ALL into one statement, each keyed by the group: one
-- dive each on jobs_fair_heads (claim_lane, claim_tag NULL, tenant_id, then run_at up to now: the
-- first entry is the tenant's oldest untagged job that is due, read from the index alone). The
-- ORDER BY names the tenant, fixed by the WHERE, before run_at: MariaDB reads the index order
-- either way, MySQL only then (with ORDER BY run_at alone it reads the tenant's whole range and
-- sorts it).
-- A plain read, like fair-untagged-select.sql: the tag update is conditional.
-- Parameters: lane, tenant id, partitions (list), lead_us
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (tenant_id, id): one per tenant walked with an untagged job due
(SELECT tenant_id, id
   FROM jobs FORCE INDEX (jobs_fair_heads)
  WHERE claim_lane = ? AND claim_tag IS NULL AND tenant_id = ? AND `partition` IN (?)
    AND run_at <= :now + INTERVAL ? MICROSECOND
  ORDER BY tenant_id, run_at, id
  LIMIT 1)
