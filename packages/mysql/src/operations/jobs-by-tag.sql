-- The next batch of an operation on jobs with a tag filter, locked: a range of job_tags (tenant_id,
-- tag, scheduled_for, job_id) for one of the filter's tags, walked forward strictly after the
-- cursor (at, id) and before `to`, each job read by its primary key and kept when its tags hold
-- the whole filter, it is the task asked for (if any), in the state asked for (if any) and the
-- action can act on it (what each action touches: docs/bulk-operations.md). Locks the rows it returns
-- (plain FOR UPDATE, not SKIP LOCKED: a job an executor holds for an instant is waited for, never
-- skipped past by the cursor).
-- A last-error text (filter.errorContains, lower-cased) narrows the rows read; it is never a key.
-- Parameters: tenant_id, tag, to, cursor_at, cursor_at, cursor_id, filter (JSON object),
--             task_id (or NULL), task_id, state (or NULL), state,
--             error_contains (or NULL), error_contains (lower case), action (the marker's, job-actions.sql), limit
-- Returns: rows of (id, task_id, scheduled_for, state, attempt, claimed_by, workflow_id, node_id, partition, has_callbacks, counts_failures)
SELECT STRAIGHT_JOIN j.id, j.task_id, j.scheduled_for, j.state, j.attempt, j.claimed_by, j.workflow_id, j.node_id, j.`partition`,
       j.callbacks IS NOT NULL AS has_callbacks, j.counts_failures
  FROM job_tags jt
  JOIN jobs j FORCE INDEX (PRIMARY) ON j.id = jt.job_id
 WHERE jt.tenant_id = ? AND jt.tag = ? AND jt.scheduled_for < ?
   AND (jt.scheduled_for > ? OR (jt.scheduled_for = ? AND jt.job_id > ?))
   AND JSON_CONTAINS(j.tags, ?)
   AND (? IS NULL OR j.task_id = ?)
   AND (? IS NULL OR j.state = ?)
   AND (? IS NULL OR LOCATE(?, LOWER(j.last_error)) > 0)
   AND %ACTION%
 ORDER BY jt.scheduled_for, jt.job_id
 LIMIT ?
   FOR UPDATE
