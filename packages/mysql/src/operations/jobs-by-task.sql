-- The next batch of an operation on one task's jobs, locked: a range of jobs_by_task (task_id,
-- scheduled_for, and the primary key id after it) walked forward strictly after the cursor (at, id)
-- and before `to`, kept when the job is the tenant's, holds the tag filter (if any), is in the
-- state asked for (if any) and the action can act on it (docs/bulk-operations.md). Plain FOR UPDATE, as
-- in jobs-by-tag.sql.
-- A last-error text (filter.errorContains, lower-cased) narrows the rows read; it is never a key.
-- Parameters: task_id, to, cursor_at, cursor_at, cursor_id, tenant_id, filter (JSON or NULL), filter,
--             state (or NULL), state,
--             error_contains (or NULL), error_contains (lower case), action (the marker's, job-actions.sql), limit
-- Returns: rows of (id, task_id, scheduled_for, state, attempt, claimed_by, workflow_id, node_id, partition, has_callbacks, counts_failures)
SELECT j.id, j.task_id, j.scheduled_for, j.state, j.attempt, j.claimed_by, j.workflow_id, j.node_id, j.`partition`,
       j.callbacks IS NOT NULL AS has_callbacks, j.counts_failures
  FROM jobs j FORCE INDEX (jobs_by_task)
 WHERE j.task_id = ? AND j.scheduled_for < ?
   AND (j.scheduled_for > ? OR (j.scheduled_for = ? AND j.id > ?))
   AND j.tenant_id = ?
   AND (? IS NULL OR JSON_CONTAINS(j.tags, ?))
   AND (? IS NULL OR j.state = ?)
   AND (? IS NULL OR LOCATE(?, LOWER(j.last_error)) > 0)
   AND %ACTION%
 ORDER BY j.scheduled_for, j.id
 LIMIT ?
   FOR UPDATE
