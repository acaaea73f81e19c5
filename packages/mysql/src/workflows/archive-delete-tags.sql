-- Deletes an archived run's tag index rows (docs/tags.md; at most 10), only if the run is marked
-- archived: the list then reads it from history (tenant_workflow_runs).
-- Parameters: workflow_id, workflow_id, limit
-- Returns: affected rows
DELETE FROM workflow_tags
 WHERE workflow_id = ? AND EXISTS (SELECT 1 FROM workflows w WHERE w.id = ? AND w.archived_at IS NOT NULL)
 LIMIT ?
