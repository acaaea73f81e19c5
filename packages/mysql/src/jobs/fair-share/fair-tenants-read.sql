-- The weight and the lane's finish tag of the tenants of a tagging batch. A plain read: the
-- lane's clock row (fair-clock-lock.sql) serialises the writers of tenant_fair_clocks.
-- Parameters: lane, tenant ids (list)
-- Returns: rows of (tenant_id, weight, vt): vt NULL for a tenant never tagged in the lane
SELECT t.id AS tenant_id, t.weight, c.vt
  FROM tenants t
  LEFT JOIN tenant_fair_clocks c ON c.tenant_id = t.id AND c.lane = ?
 WHERE t.id IN (?)
