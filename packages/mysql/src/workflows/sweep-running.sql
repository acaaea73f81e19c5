-- A page of running runs after a cursor, for the reconciler's sweep: the running range of
-- workflows_by_state (state, deadline_at, id), sorted by id. The sort covers the running runs,
-- which are few next to their nodes or the jobs table.
-- Parameters: after_id, limit
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM workflows
 WHERE state = 'running' AND id > ?
 ORDER BY id
 LIMIT ?
