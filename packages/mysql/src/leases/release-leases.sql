-- Frees leases at once (rebalancing, shutdown): expired now, so another replica takes them
-- on its next pass instead of after a TTL. The token stays; the next holder bumps it.
-- Parameters: (name, token) pairs (list), holder
-- Returns: affected rows
UPDATE leases
   SET holder = NULL, expires_at = NOW(3)
 WHERE (name, token) IN (?) AND holder = ?
