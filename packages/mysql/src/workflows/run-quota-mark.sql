-- Runs that ended owe their place in the tenant's quota (decision D61): marked in the run's own
-- transaction, given back after its commit (run-quota-lock.sql, then workflow-quota-release.sql).
-- Keyed by the runs' partitions (docs/sharding.md): one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE workflows
   SET quota_release = 1
 WHERE `partition` IN (?) AND id IN (?) AND quota_release = 0
