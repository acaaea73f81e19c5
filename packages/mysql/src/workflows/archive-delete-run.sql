-- Deletes an archived run's row, last: only once it is marked archived and no node row is left,
-- so a crash in the middle of the delete leaves the row that brings the archiver back to finish.
-- Keyed by the run's partition (one shard on Vitess, docs/sharding.md; a run's rows share it).
-- Parameters: partition, id, partition, workflow_id
-- Returns: affected rows
DELETE FROM workflows
 WHERE `partition` = ? AND id = ? AND archived_at IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM workflow_nodes n WHERE n.`partition` = ? AND n.workflow_id = ?)
