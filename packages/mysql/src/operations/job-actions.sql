-- What each job action touches, as a condition on a job `j` that the walks (jobs-by-*.sql) put in
-- place of their ACTION marker, so the three walks and the matched counts agree on it
-- (docs/bulk-operations.md):
--   cancel   pending jobs, and running ones not yet asked to cancel, except a scheduled workflow's
--            occurrence whose run has started (its cancel is its run's: POST /v1/workflows/{id}/cancel);
--   redrive  dead jobs, except workflow nodes' (re-run through their workflow's node retry, which
--            resets the node with its job);
--   retry    pending jobs waiting out a retry backoff (attempt > 0, due later), not held ones
--            (a paused run's node jobs, `held`: their run's resume makes them due).
-- Parameters: action
CASE ?
  WHEN 'cancel' THEN j.state = 'pending' OR (j.state = 'running' AND j.lane <> 'workflow' AND j.cancel_requested = 0)
  WHEN 'redrive' THEN j.state = 'dead' AND j.workflow_id IS NULL
  WHEN 'retry' THEN j.state = 'pending' AND j.held = 0 AND j.attempt > 0 AND j.run_at > NOW(3)
  ELSE FALSE END
