-- A map node's run: whether it still runs, is paused, or holds its nodes to a maxParallel. Read
-- unlocked for a slice (the run's row is locked by every outcome batch's run-end check: a lock held
-- through a slice would stall them); locked for the start (FOR UPDATE, in place of the marker), once per
-- map: a cancel (stopRuns locks the run first) then waits for the start to commit and cancels the
-- first slice's items with the rest, or the start waits for the cancel and sees the run ended.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: partition, workflow_id
-- Returns: one row of (state, paused, max_parallel)
SELECT state, paused, max_parallel
  FROM workflows
 WHERE `partition` = ? AND id = ?
 %LOCK%
