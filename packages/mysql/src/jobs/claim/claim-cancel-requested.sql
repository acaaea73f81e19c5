-- Of the calls an executor has in flight, those whose cancel was requested (job-api's cancel, a
-- workflow's cancel or fail_fast): the executor asks every EXECUTOR_CANCEL_POLL_MS, so a running
-- call is aborted within about that long, not at its next lease renewal (TTL / 3). One statement
-- per pass, by primary key: the work is the number of calls in flight, never the size of jobs, and
-- no index is added to the hot table for a flag that is almost never set.
-- Parameters: ids (list), claimed_by, partitions (list)
-- Returns: rows of (id, attempt)
SELECT id, attempt
  FROM jobs
 WHERE id IN (?) AND cancel_requested = 1 AND state = 'running' AND claimed_by = ?
   AND `partition` IN (?)
