-- Replaces a batch of signing secrets by their envelopes under the current key, each only if
-- the row still holds the value that was read: a row another replica resealed meanwhile is left
-- alone. One statement per batch; readers see the old or the new value, both of which open.
-- Parameters: rows (derived: id, old, sealed, key_id)
UPDATE tenants t
  JOIN (:rows) v ON t.id = v.id AND t.signing_secret = v.old
   SET t.signing_secret = v.sealed, t.signing_secret_key_id = v.key_id, t.updated_at = NOW(3)
