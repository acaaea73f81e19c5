-- Pause holds the jobs a run already made: its node jobs that are pending (not claimed yet, or
-- waiting out a retry's backoff) are marked held, which takes them out of every claim's range
-- (claim_lane is NULL for a held job), so no executor claims them while the run is paused; run_at
-- keeps their due time. Calls already running finish. Run by the pause, and by the reconciler's
-- sweep for the paused runs of its page (a job given back, or revived by a node retry, after the
-- pause). Reached through workflow_nodes_by_state (the runs' pending nodes), each job by primary
-- key; conditional on the run still being paused and running, and on the job not held yet (the
-- sweep counts the jobs it held).
-- Keyed by the runs' partitions, which their nodes and node jobs share, every table joined on it
-- (docs/sharding.md): one shard through vtgate.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs j
  JOIN workflow_nodes n ON j.id = n.job_id AND j.`partition` = n.`partition`
  JOIN workflows w ON w.id = n.workflow_id AND w.`partition` = n.`partition`
   SET j.held = 1, j.updated_at = NOW(3)
 WHERE n.`partition` IN (?) AND n.workflow_id IN (?) AND n.state = 'pending' AND w.paused = 1 AND w.state = 'running'
   AND j.state = 'pending' AND j.held = 0
