-- Tasks (of those given) with a run still pending or running, for overlap policy `forbid`. A
-- callback job reports on a run that has ended: it is not a run of its own.
-- Forced onto jobs_occurrence (task_id, occurrence) by its task_id prefix: the state indexes
-- would read every pending job.
-- Keyed by the batch's group (`partition IN`): through vtgate it reaches the group's one shard
-- (a task's jobs are in its partition, docs/sharding.md).
-- Parameters: task_ids (list), partitions (list: the batch's group)
-- Returns: rows of (task_id)
SELECT DISTINCT task_id
  FROM jobs FORCE INDEX (jobs_occurrence)
 WHERE task_id IN (?) AND `partition` IN (?) AND state IN ('pending', 'running') AND kind <> 'callback'
