-- Resume releases the jobs its pause held (node-jobs-hold.sql): due now. A retry's remaining
-- backoff is not restored: the pause lasted at least as long. A sleep or wait node's job is
-- scheduled for its wake time (node-jobs-insert-run.sql), so one paused before it is due again
-- then, not at resume: a resume does not cut a sleep short or a wait's timeout.
-- Parameters: workflow_id
-- Returns: affected rows
UPDATE jobs j
  JOIN workflow_nodes n ON j.id = n.job_id
   SET j.run_at = GREATEST(NOW(3), j.scheduled_for), j.updated_at = NOW(3)
 WHERE n.workflow_id = ? AND n.state = 'pending' AND j.state = 'pending'
   AND j.run_at = '9000-01-01 00:00:00.000'
