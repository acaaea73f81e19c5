-- The keys' earliest next starts after a claim took rate-limited jobs of them, under their locks.
-- Parameters: rows (derived: tenant_id, flow_key, tat)
-- Returns: affected rows
UPDATE flow_keys f
  JOIN (:rows) v ON f.tenant_id = v.tenant_id AND f.flow_key = v.flow_key
   SET f.tat = v.tat
