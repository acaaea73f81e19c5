-- Membership rows of replicas gone for an hour: process ids change on every start, so without
-- this the table would keep one row per start forever.
-- Parameters: member_prefix_pattern
-- Returns: affected rows
DELETE FROM leases
 WHERE name LIKE ? AND expires_at < NOW(3) - INTERVAL 1 HOUR
