-- Creates the lease rows that do not exist yet (free: no holder, token 0, long expired).
-- Parameters: rows (name, holder, token, expires_at)
-- Returns: affected rows
INSERT IGNORE INTO leases (name, holder, token, expires_at)
VALUES ?
