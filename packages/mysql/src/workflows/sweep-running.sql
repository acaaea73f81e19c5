-- A page of running runs after a cursor, for the reconciler's sweep: the running range of
-- workflows_by_state (state, deadline_at, id, partition), sorted by id. The sort covers the running
-- runs, which are few next to their nodes or the jobs table.
-- Keyed by the sweep's group of partitions (one shard on Vitess, docs/sharding.md): `partition`
-- is the index's last column, so the range and its sort stay as they were.
-- Parameters: partitions (list), after_id, limit
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM workflows
 WHERE state = 'running' AND `partition` IN (?) AND id > ?
 ORDER BY id
 LIMIT ?
