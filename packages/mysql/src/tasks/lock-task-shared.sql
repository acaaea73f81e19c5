-- A tenant's live task, share-locked: it cannot be edited or deleted until the run requests
-- made from it (trigger-now, backfill) commit.
-- Parameters: id, tenant_id
-- Returns: rows of (id, schedule, tagged)
SELECT id, schedule, tags IS NOT NULL AS tagged, `partition`
  FROM tasks
 WHERE id = ? AND tenant_id = ? AND state <> 'deleted'
  LOCK IN SHARE MODE
