-- What a claim needs of its jobs' tenants: the signing secret (sealed), the concurrency limit and
-- the fair-share weight, by primary key. Read apart from the claim's rows (claim-read.sql) because
-- `tenants` is in the global keyspace on Vitess (docs/sharding.md): a plain read that locks
-- nothing, on a connection of its own, so the shard's transaction never joins it. The executor
-- keeps what it reads for a few seconds (TenantCache).
-- Parameters: ids (list)
-- Returns: rows of (id, signing_secret, max_concurrency, weight)
SELECT id, signing_secret, max_concurrency, weight
  FROM tenants
 WHERE id IN (?)
