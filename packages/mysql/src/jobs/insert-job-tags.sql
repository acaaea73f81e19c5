-- The tag index rows (docs/tags.md) of jobs insert-jobs.sql just made, one per tag of their task,
-- in the same transaction (the task rows are locked, so its task_tags are the tags it copied). Only
-- tagged tasks' jobs are passed. A job id that was not inserted (its occurrence existed) has no
-- jobs row and gets none.
-- Parameters: document (JSON array of [job_id_hex, task_id_hex])
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`)
SELECT STRAIGHT_JOIN tt.tenant_id, tt.tag, jb.scheduled_for, jb.id, jb.`partition`
  FROM JSON_TABLE(?, '$[*]' COLUMNS (
         id CHAR(32) PATH '$[0]',
         task_id CHAR(32) PATH '$[1]')) AS j
  JOIN jobs jb ON jb.id = UNHEX(j.id)
  JOIN task_tags tt FORCE INDEX (task_tags_by_task) ON tt.task_id = UNHEX(j.task_id)
 WHERE jb.task_id = UNHEX(j.task_id)
