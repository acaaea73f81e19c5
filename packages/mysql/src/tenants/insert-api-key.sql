-- An API key of a tenant, stored by its SHA-256 only (the key itself is shown once); it lives
-- until a rotation gives it an expires_at.
-- Parameters: key_hash, tenant_id, key_prefix, created_at
-- Returns: affected rows (1)
INSERT INTO tenant_api_keys (key_hash, tenant_id, key_prefix, created_at) VALUES (?, ?, ?, ?)
