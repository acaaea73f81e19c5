-- A new tenant with its quotas; its first API key is inserted in the same transaction.
-- signing_secret is stored sealed (`enc1:<key id>:...`, its key id beside it) by task-api; tests
-- and benchmarks may write a plaintext one (key id NULL), as rows written before migration 0046.
-- Parameters: id, name, signing_secret, signing_secret_key_id, max_tasks, max_concurrency, rate_limit_per_second, weight, created_at, updated_at
-- Returns: affected rows (1)
INSERT INTO tenants (id, name, signing_secret, signing_secret_key_id, max_tasks, max_concurrency,
                     rate_limit_per_second, weight, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
