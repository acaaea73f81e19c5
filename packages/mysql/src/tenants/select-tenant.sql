-- A tenant by id (the primary key).
-- Parameters: id
-- Returns: TenantRow (id, name, signing_secret, max_tasks, max_concurrency, rate_limit_per_second, created_at); zero or one
SELECT id, name, signing_secret, max_tasks, max_concurrency, rate_limit_per_second, created_at
  FROM tenants
 WHERE id = ?
