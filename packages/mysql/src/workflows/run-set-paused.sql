-- Pauses or resumes a running run: while paused, nodes that become ready wait as `ready` instead
-- of getting jobs (the walk goes on; dispatch holds).
-- Keyed by the run's partition (docs/sharding.md).
-- Parameters: paused (0 | 1), partition, id
-- Returns: affected rows
UPDATE workflows
   SET paused = ?, updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND state = 'running'
