-- An admin's change to a tenant's name, quotas and weight. Each column has a flag: 1 writes the value
-- that follows it (NULL lifts a limit), 0 keeps the column as it is.
-- Parameters: set_name, name, set_max_tasks, max_tasks, set_max_concurrency, max_concurrency,
--             set_rate_limit, rate_limit_per_second, set_weight, weight, id
-- Returns: affected rows (0: no such tenant)
UPDATE tenants
   SET name = IF(? = 1, ?, name),
       max_tasks = IF(? = 1, ?, max_tasks),
       max_concurrency = IF(? = 1, ?, max_concurrency),
       rate_limit_per_second = IF(? = 1, ?, rate_limit_per_second),
       weight = IF(? = 1, ?, weight),
       updated_at = NOW(3)
 WHERE id = ?
