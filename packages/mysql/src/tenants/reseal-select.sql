-- One batch of tenants whose signing secret is not sealed with the current key (plaintext from
-- before migration 0046: NULL key id; or an older key), after a cursor, in primary-key order.
-- Walks the primary key from the cursor; tenants_secret_key answers the remaining count alone.
-- Parameters: after (id), current key id, limit
SELECT id, signing_secret
  FROM tenants
 WHERE id > ? AND (signing_secret_key_id IS NULL OR signing_secret_key_id <> ?)
 ORDER BY id
 LIMIT ?
