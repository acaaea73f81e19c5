-- Locks the jobs of an outcome batch that are still at the reporting claim (invariant 3): the
-- ones missing from the answer were reclaimed, finished through job-api or cancelled meanwhile,
-- and their results are dropped. Primary-key order, the lock order every writer uses.
-- Keyed by the batch's partitions (the shard key: through vtgate, one shard; docs/sharding.md).
-- Parameters: partitions (list), rows ((id, attempt) list)
-- Returns: rows of (id, attempt)
SELECT id, attempt
  FROM jobs
 WHERE `partition` IN (?) AND (id, attempt) IN (?) AND state = 'running'
 ORDER BY id
   FOR UPDATE
