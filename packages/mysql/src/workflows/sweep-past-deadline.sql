-- Running runs past their deadlineS: a range of workflows_by_state (state, deadline_at).
-- Parameters: limit
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM workflows
 WHERE state = 'running' AND deadline_at <= NOW(3)
 ORDER BY deadline_at
 LIMIT ?
