-- A replica's membership row: live replicas are the unexpired rows with the member prefix, and
-- each aims at ceil(partitions / live replicas) partition leases.
-- Parameters: name, holder, ttl_ms
-- Returns: affected rows
INSERT INTO leases (name, holder, token, expires_at)
VALUES (?, ?, 0, NOW(3) + INTERVAL ? * 1000 MICROSECOND)
    ON DUPLICATE KEY UPDATE holder = VALUES(holder), expires_at = VALUES(expires_at)
