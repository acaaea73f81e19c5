-- A page of running runs after a cursor, for the reconciler's sweep: a range of workflows_by_state
-- (state, deadline_at, id), read in id order (the running set is small next to the jobs table:
-- runs, not nodes).
-- Parameters: after_id, limit
SELECT id
  FROM workflows
 WHERE state = 'running' AND id > ?
 ORDER BY id
 LIMIT ?
