-- The new key of a rotation, created on the database clock.
-- Parameters: key_hash, tenant_id, key_prefix
-- Returns: affected rows (1)
INSERT INTO tenant_api_keys (key_hash, tenant_id, key_prefix, created_at) VALUES (?, ?, ?, NOW(3))
