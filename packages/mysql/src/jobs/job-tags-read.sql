-- The tags of jobs insert-jobs.sql just made (copied there from their task's row), for their tag
-- index rows (insert-job-tags.sql). A job id that was not inserted (its occurrence existed) has no
-- row and gets none. Keyed by the jobs' partitions: read in the shard's transaction that made them,
-- never from task_tags (dsched_global, docs/sharding.md). By primary key.
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, tenant_id, scheduled_for, tags, partition)
SELECT id, tenant_id, scheduled_for, tags, `partition`
  FROM jobs
 WHERE `partition` IN (?) AND id IN (?) AND tags IS NOT NULL
