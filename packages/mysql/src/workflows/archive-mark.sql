-- Marks a finished run archived once its history copy is complete, fenced by the state and the
-- updated_at the copy was made from: a run retried (reopened) since is not marked, and stays live.
-- Keyed by the run's partition (one shard on Vitess, docs/sharding.md; a run's rows share it).
-- Parameters: partition, id, state, updated_at
-- Returns: affected rows (1: marked; 0: changed since the copy, or marked already)
UPDATE workflows
   SET archived_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND state = ? AND updated_at = ? AND archived_at IS NULL
