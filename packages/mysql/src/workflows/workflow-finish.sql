-- Ends runs that are still running: succeeded, failed or cancelled, once (conditional on running).
-- Keyed by the runs' partitions (docs/sharding.md): one shard through vtgate.
-- Parameters: state, partitions (list), ids (list)
-- Returns: affected rows
UPDATE workflows
   SET state = ?, finished_at = NOW(3), updated_at = NOW(3)
 WHERE `partition` IN (?) AND id IN (?) AND state = 'running'
