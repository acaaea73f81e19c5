-- The partitions of ended jobs whose path did not say them (docs/sharding.md): the follow-ups are
-- keyed by them. The executor's outcome says them (its claim read them); a path that does not yet
-- pays this read by primary key, unkeyed (through vtgate it goes to every shard).
-- Parameters: ids (list)
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM jobs
 WHERE id IN (?)
