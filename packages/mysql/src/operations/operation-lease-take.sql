-- A worker takes the lease of one running operation whose lease is free or has expired (its
-- worker died or stalled), oldest lease first: a range of operations_running (state,
-- lease_expires_at). The owner is unique per take, so the worker then finds the row by it.
-- Parameters: owner, ttl_ms
-- Returns: affected rows
UPDATE operations
   SET lease_owner = ?, lease_expires_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND, updated_at = NOW(3)
 WHERE state = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < NOW(3))
 ORDER BY lease_expires_at, id
 LIMIT 1
