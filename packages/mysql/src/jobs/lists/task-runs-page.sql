-- A task's live jobs newest first, strictly before the cursor (at, id) and not before `from`.
-- Walks jobs_by_task (task_id, scheduled_for, id) backwards from the cursor; the tenant condition
-- only filters (a task has one tenant) and makes another tenant's task id find nothing.
-- A tag filter (docs/tags.md) is checked on each row: a task's runs carry its tags.
-- Parameters: task_id, tenant_id, from, cursor_at, cursor_at, cursor_at, cursor_id, tags (JSON object or NULL), tags, limit
-- Returns: rows of (id)
SELECT id
  FROM jobs
 WHERE task_id = ? AND tenant_id = ? AND scheduled_for >= ? AND scheduled_for <= ?
   AND (scheduled_for < ? OR (scheduled_for = ? AND id < ?))
   AND (? IS NULL OR JSON_CONTAINS(tags, ?))
 ORDER BY scheduled_for DESC, id DESC
 LIMIT ?
