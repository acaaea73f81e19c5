-- A tenant by id (the primary key).
-- Parameters: id
-- The signing secret is not read here: only the executor's claim reads it (claim-read.sql).
-- Returns: TenantRow (id, name, max_tasks, max_concurrency, rate_limit_per_second, weight, created_at); zero or one
SELECT id, name, max_tasks, max_concurrency, rate_limit_per_second, weight, created_at
  FROM tenants
 WHERE id = ?
