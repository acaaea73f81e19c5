-- The leases a holder has now, with their tokens.
-- Parameters: names (list), holder
-- Returns: rows of (name, token)
SELECT name, token
  FROM leases
 WHERE name IN (?) AND holder = ? AND expires_at > NOW(3)
