-- The next batch of a pause or resume by tag: a range of task_tags (tenant_id, tag, task_id) for
-- one of the filter's tags, strictly after the cursor id, each task read by its primary key and
-- kept when its tags hold the whole filter and it is in the state the action changes (active to
-- pause, paused to resume). Not locked here: each task's change locks its row and decides again
-- (task-changes.ts).
-- Parameters: tenant_id, tag, cursor_id, filter (JSON object), task_id (or NULL), task_id, state, limit
-- Returns: rows of (id, partition)
SELECT STRAIGHT_JOIN t.id, t.`partition`
  FROM task_tags tt
  JOIN tasks t FORCE INDEX (PRIMARY) ON t.id = tt.task_id
 WHERE tt.tenant_id = ? AND tt.tag = ? AND tt.task_id > ?
   AND JSON_CONTAINS(t.tags, ?)
   AND (? IS NULL OR t.id = ?)
   AND t.state = ?
 ORDER BY tt.task_id
 LIMIT ?
