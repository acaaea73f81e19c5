-- The tenants of a claim batch: the signing secret for the calls and the concurrency limit.
-- A plain (non-locking) read: a locking one would make the tenant row a hot spot for every claim.
-- Parameters: tenant ids (list)
SELECT id, signing_secret, max_concurrency FROM tenants WHERE id IN (?)
