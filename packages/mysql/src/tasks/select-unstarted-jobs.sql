-- Jobs of a task materialised but not started (pending at attempt 0), locked. A claim in flight
-- is waited for, then its job is running and no longer matches. Forced onto jobs_occurrence by
-- its task_id prefix: a locking read must not wander onto the state index (every pending job).
-- trace_context: a replacement job continues its occurrence's trace.
-- Keyed by the task's partition, which its jobs share (docs/sharding.md).
-- Parameters: partition, task_id, kinds (list)
-- Returns: rows of (id, occurrence, kind, scheduled_for, run_at, trace_context)
SELECT id, occurrence, kind, scheduled_for, run_at, trace_context, `partition`
  FROM jobs FORCE INDEX (jobs_occurrence)
 WHERE `partition` = ? AND task_id = ? AND kind IN (?) AND state = 'pending' AND attempt = 0
   FOR UPDATE
