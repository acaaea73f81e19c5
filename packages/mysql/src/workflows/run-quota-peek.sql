-- Of some runs, those whose end still owes their tenant's quota a place (decision D61); a plain
-- read, so that a batch none of whose runs ended costs no lock. run-quota-lock.sql re-checks.
-- Keyed by the runs' partitions (docs/sharding.md): one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM workflows
 WHERE `partition` IN (?) AND id IN (?) AND quota_release = 1
