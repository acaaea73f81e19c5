-- Deletes an archived run's row, last: only once it is marked archived and no node row is left,
-- so a crash in the middle of the delete leaves the row that brings the archiver back to finish.
-- Parameters: id, workflow_id
-- Returns: affected rows
DELETE FROM workflows
 WHERE id = ? AND archived_at IS NOT NULL
   AND NOT EXISTS (SELECT 1 FROM workflow_nodes n WHERE n.workflow_id = ?)
