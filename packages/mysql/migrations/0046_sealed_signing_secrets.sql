-- Tenant signing secrets are stored sealed (AES-256-GCM, packages/domain/src/secret-envelope.ts):
-- signing_secret holds `enc1:<key id>:<...>`, and this column names the key that sealed it, so
-- the rows still under an older key (or plaintext, written before this migration: NULL) are
-- found by index, for the reseal pass and for an operator checking that a retired key is unused:
--   SELECT COUNT(*) FROM tenants WHERE signing_secret_key_id IS NULL OR signing_secret_key_id <> '<current>'
-- Plaintext rows keep working: the read path tells them apart by the envelope's prefix.
ALTER TABLE tenants
  ADD COLUMN signing_secret_key_id VARCHAR(32) NULL AFTER signing_secret,
  ADD INDEX tenants_secret_key (signing_secret_key_id);
