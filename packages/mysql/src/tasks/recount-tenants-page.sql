-- The reconciler's recount of the task quota (task-count-recount.ts): a page of tenants with their
-- counts, in id order after a cursor (dsched_global).
-- Parameters: after_id, limit
-- Returns: rows of (id, task_count)
SELECT id, task_count
  FROM tenants
 WHERE id > ?
 ORDER BY id
 LIMIT ?
