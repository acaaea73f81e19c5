-- The tag index rows (docs/tags.md) of jobs insert-jobs.sql just made, one per tag of their task,
-- in the same transaction (the task rows are locked, so its task_tags are the tags it copied). Only
-- tagged tasks' jobs are passed. A job id that was not inserted (its occurrence existed) has no
-- jobs row and gets none.
-- The jobs come as a derived table of literal rows (withRows, sql.ts; vtgate refuses JSON_TABLE).
-- Keyed by the jobs' partitions (`jb.partition IN`), so the jobs and tag rows are one shard's.
-- Parameters: :rows of (id, task_id), partitions (list)
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`)
SELECT STRAIGHT_JOIN tt.tenant_id, tt.tag, jb.scheduled_for, jb.id, jb.`partition`
  FROM (:rows) AS j
  JOIN jobs jb ON jb.id = j.id
  JOIN task_tags tt FORCE INDEX (task_tags_by_task) ON tt.task_id = j.task_id
 WHERE jb.task_id = j.task_id AND jb.`partition` IN (?)
