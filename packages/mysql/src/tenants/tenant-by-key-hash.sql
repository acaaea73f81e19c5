-- The tenant owning an unexpired key with this hash. Runs first on every authenticated request:
-- the tenant_api_keys primary key (key_hash), then tenants by primary key, one row each.
-- Parameters: key_hash
-- The signing secret is not read here: only the executor's claim reads it (claim-read.sql).
-- Returns: TenantRow (id, name, max_tasks, max_concurrency, rate_limit_per_second, weight, created_at); zero or one
SELECT t.id, t.name, t.max_tasks, t.max_concurrency, t.rate_limit_per_second, t.weight, t.created_at
  FROM tenant_api_keys k JOIN tenants t ON t.id = k.tenant_id
 WHERE k.key_hash = ? AND (k.expires_at IS NULL OR k.expires_at > NOW(3))
