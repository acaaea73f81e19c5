-- The tag index rows (docs/tags.md) of jobs insert-jobs.sql just made, one per tag of each job's
-- tags as job-tags-read.sql read them, in the same transaction. Only tagged tasks' jobs are read.
-- Each row carries its job's partition (the shard key): the jobs' shard.
-- Parameters: rows (tenant_id, tag, scheduled_for, job_id, partition)
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`) VALUES ?
