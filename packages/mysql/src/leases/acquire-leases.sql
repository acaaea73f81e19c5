-- Takes free leases. The token bump is the fence: every write the previous holder still makes
-- checks its token (check-partition-leases.sql), so it writes nothing more once this commits. Two
-- replicas racing for one lease serialise on its row; the second finds it no longer free.
-- Parameters: holder, ttl_ms, names (list)
-- Returns: affected rows
UPDATE leases
   SET holder = ?, token = token + 1, expires_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND
 WHERE name IN (?) AND (holder IS NULL OR expires_at <= NOW(3))
