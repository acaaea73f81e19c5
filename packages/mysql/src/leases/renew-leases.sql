-- Extends the leases this holder still has at the token it knows. A lease that expired but
-- nobody took keeps its token and is renewed: nobody else can have written under it.
-- Parameters: ttl_ms, (name, token) pairs (list), holder
-- Returns: affected rows
UPDATE leases
   SET expires_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND
 WHERE (name, token) IN (?) AND holder = ?
