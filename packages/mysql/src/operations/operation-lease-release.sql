-- A worker stopping between batches gives its lease back, so another takes the operation at once
-- rather than after the lease expires.
-- Parameters: id, owner
-- Returns: affected rows
UPDATE operations
   SET lease_owner = NULL, lease_expires_at = NULL, updated_at = NOW(3)
 WHERE id = ? AND lease_owner = ? AND state = 'running'
