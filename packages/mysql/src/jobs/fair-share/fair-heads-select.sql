-- The oldest untagged job of each of the next tenants, if it is due: what the tagger tags first,
-- so a tenant's new job is tagged in the next pass however many untagged due rows another tenant
-- has ahead of it in due order (docs/fair-share.md, D27). Walks tenants by primary key from the
-- lane's heads_after (the empty string from the first), up to the bound; per tenant one dive on
-- jobs_fair_heads (claim_lane, claim_tag NULL, tenant_id, then run_at order: one index entry, the
-- tenant's oldest untagged job, due or not, so a tenant with many rows not yet due costs no more
-- than one with none), then one primary-key read to keep it only if due. The ORDER BY names the
-- tenant, fixed by the WHERE, before run_at: MariaDB reads the index order either way, MySQL only
-- then (with ORDER BY run_at alone it reads the tenant's whole range and sorts it: 57,001 index
-- reads for 500 tenants of 114 untagged rows each against 2,001).
-- A plain read, like fair-untagged-select.sql: the tag update is conditional.
-- Parameters: lane, after (tenant id, or '' for the first), limit, lead_us
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (tenant_id, id): one per tenant walked; id NULL when the
-- tenant has no untagged job due
SELECT h.tenant_id, j.id
  FROM (SELECT t.id AS tenant_id,
               (SELECT u.id
                  FROM jobs u
                 WHERE u.claim_lane = ? AND u.claim_tag IS NULL AND u.tenant_id = t.id
                 ORDER BY u.tenant_id, u.run_at, u.id
                 LIMIT 1) AS head
          FROM tenants t
         WHERE t.id > ?
         ORDER BY t.id
         LIMIT ?) h
  LEFT JOIN jobs j ON j.id = h.head AND j.run_at <= :now + INTERVAL ? MICROSECOND
