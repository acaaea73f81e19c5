-- A map node's job that has nothing to do yet (its items are running, or its run is paused) is due
-- again later: a check, in case no walk reaches it. The walk makes it due at once when it decides
-- the node (node-jobs-revive.sql), so the wait is only a safety net.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: delay_ms, partition, id
-- Returns: affected rows
UPDATE jobs
   SET run_at = NOW(3) + INTERVAL ? * 1000 MICROSECOND, updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND state = 'pending'
