-- The marked runs this transaction gives the places of (decision D61), under their row locks:
-- whoever clears a mark (run-quota-clear.sql, same transaction) is the one that gives its place
-- back, so a place is never given back twice. SKIP LOCKED: another process is clearing that one.
-- Keyed by the runs' partitions (docs/sharding.md): one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, tenant_id)
SELECT id, tenant_id
  FROM workflows
 WHERE `partition` IN (?) AND id IN (?) AND quota_release = 1
   FOR UPDATE SKIP LOCKED
