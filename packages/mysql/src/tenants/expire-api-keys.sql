-- A rotation: every key of the tenant that would live longer than the grace period now expires
-- at its end (a key already due to expire sooner keeps its earlier time).
-- Parameters: grace_seconds, tenant_id, grace_seconds
-- Returns: affected rows
UPDATE tenant_api_keys SET expires_at = NOW(3) + INTERVAL ? SECOND
 WHERE tenant_id = ? AND (expires_at IS NULL OR expires_at > NOW(3) + INTERVAL ? SECOND)
