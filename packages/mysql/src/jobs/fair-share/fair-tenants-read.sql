-- The shard's finish tags in the lane of the tenants of a tagging batch (their weights come from
-- the tenant cache: `tenants` is in the global keyspace on Vitess). A plain read: the shard's lane
-- clock row (fair-clock-lock.sql) serialises the writers of its tenant clocks.
-- Parameters: anchor, lane, tenant ids (list)
-- Returns: rows of (tenant_id, vt): none for a tenant never tagged in the shard's lane
SELECT tenant_id, vt
  FROM tenant_fair_clocks
 WHERE `partition` = ? AND lane = ? AND tenant_id IN (?)
