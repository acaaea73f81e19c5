-- The next tenants of the tagger's walk (fair-heads-select.sql), by primary key from the shard's
-- heads_after (the empty string from the first). `tenants` is in the global keyspace on Vitess
-- (docs/sharding.md): a plain read on a connection of its own, outside the shard's transaction.
-- Parameters: after (tenant id, or ''), limit
-- Returns: rows of (id)
SELECT id
  FROM tenants
 WHERE id > ?
 ORDER BY id
 LIMIT ?
