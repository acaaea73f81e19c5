-- Live replicas of a group.
-- Parameters: member_prefix_pattern
-- Returns: rows of (members)
SELECT COUNT(*) AS members
  FROM leases
 WHERE name LIKE ? AND expires_at > NOW(3)
