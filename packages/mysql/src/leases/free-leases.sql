-- Leases with a name prefix that nobody holds now: released, or expired because their holder
-- stopped renewing. A plain read; acquire-leases.sql re-checks under the row locks.
-- Parameters: name_prefix_pattern
-- Returns: rows of (name)
SELECT name
  FROM leases
 WHERE name LIKE ? AND (holder IS NULL OR expires_at <= NOW(3))
 ORDER BY name
