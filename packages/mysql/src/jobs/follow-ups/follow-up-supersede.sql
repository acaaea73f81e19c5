-- What a pause does to the jobs materialised ahead (as supersede-jobs.sql for a tenant's pause):
-- the unstarted scheduled jobs of the given tasks that are now paused are cancelled and moved off
-- their occurrence key, so a resume can make the same instants again. Fenced: a job claimed
-- meanwhile is left alone. The task rows are locked already (follow-up-pause.sql). Forced onto the
-- tasks primary key: with few paused tasks the optimizer otherwise takes tasks_due's state prefix,
-- which reads every paused task of every tenant. The jobs are found by a task_id prefix
-- (jobs_by_task or jobs_occurrence).
-- Keyed by the tasks' partitions, which their jobs share (the shard key, docs/sharding.md).
-- Parameters: partitions (list), task_ids (list)
-- Returns: affected rows (jobs cancelled)
UPDATE jobs j
  JOIN tasks t FORCE INDEX (PRIMARY) ON t.id = j.task_id AND t.`partition` = j.`partition`
   SET j.state = 'cancelled', j.occurrence = CONCAT('superseded:', t.version, ':', j.occurrence),
       j.last_error = 'task paused after failures', j.finished_at = NOW(3), j.updated_at = NOW(3)
 WHERE t.`partition` IN (?) AND t.id IN (?) AND t.state = 'paused' AND j.kind = 'scheduled' AND j.state = 'pending' AND j.attempt = 0
