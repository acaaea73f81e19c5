-- A new tenant with its quotas; its first API key is inserted in the same transaction.
-- Parameters: id, name, signing_secret, max_tasks, max_concurrency, rate_limit_per_second, created_at, updated_at
-- Returns: affected rows (1)
INSERT INTO tenants (id, name, signing_secret, max_tasks, max_concurrency, rate_limit_per_second, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
