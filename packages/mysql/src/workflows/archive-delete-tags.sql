-- Deletes an archived run's tag index rows (docs/tags.md; at most 10), only if the run is marked
-- archived: the list then reads it from history (tenant_workflow_runs).
-- Keyed by the run's partition (one shard on Vitess, docs/sharding.md; a run's rows share it).
-- Parameters: partition, workflow_id, partition, workflow_id, limit
-- Returns: affected rows
DELETE FROM workflow_tags
 WHERE `partition` = ? AND workflow_id = ?
   AND EXISTS (SELECT 1 FROM workflows w WHERE w.`partition` = ? AND w.id = ? AND w.archived_at IS NOT NULL)
 LIMIT ?
