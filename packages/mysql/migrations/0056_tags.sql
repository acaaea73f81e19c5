-- Tags (docs/tags.md): a small string-to-string map on tasks and workflows, copied to the jobs made
-- from them when they are made, and the `?tag=key:value` filter of every list.
--
-- `tags` (JSON object, NULL when none) is the document a resource shows; a list's filter of every
-- asked tag is JSON_CONTAINS(tags, ?) on the rows it reads. Which rows it reads comes from an index
-- table per resource: one row per (resource, tag), `tag` being `key:value` (64 + 1 + 128
-- characters at most), in the list's own order, so a tag-filtered page is a range of that index
-- joined by primary key:
--   task_tags     (tenant, tag, task id)               tasks are listed by id
--   workflow_tags (tenant, tag, created_at, run id)    runs newest first
--   job_tags      (tenant, tag, scheduled_for, job id) jobs and runs newest first
-- Each has a key by the resource's id, for the statements that rewrite or delete a resource's tag
-- rows. job_tags rows are written in the transaction that inserts their jobs and deleted with them
-- when the archiver moves them to history (where tenant_jobs_by_tag takes over).
--
-- workflows_by_tenant_created (tenant, created_at, id): the runs list, newest first, with its time
-- range, when no tag is asked for.
ALTER TABLE tasks ADD COLUMN tags JSON NULL;
ALTER TABLE jobs ADD COLUMN tags JSON NULL;
ALTER TABLE workflows
  ADD COLUMN tags JSON NULL,
  ADD INDEX workflows_by_tenant_created (tenant_id, created_at, id);

CREATE TABLE task_tags (
  tenant_id BINARY(16) NOT NULL,
  tag VARCHAR(193) NOT NULL,
  task_id BINARY(16) NOT NULL,
  PRIMARY KEY (tenant_id, tag, task_id),
  KEY task_tags_by_task (task_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE workflow_tags (
  tenant_id BINARY(16) NOT NULL,
  tag VARCHAR(193) NOT NULL,
  created_at DATETIME(3) NOT NULL,
  workflow_id BINARY(16) NOT NULL,
  PRIMARY KEY (tenant_id, tag, created_at, workflow_id),
  KEY workflow_tags_by_workflow (workflow_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE job_tags (
  tenant_id BINARY(16) NOT NULL,
  tag VARCHAR(193) NOT NULL,
  scheduled_for DATETIME(3) NOT NULL,
  job_id BINARY(16) NOT NULL,
  PRIMARY KEY (tenant_id, tag, scheduled_for, job_id),
  KEY job_tags_by_job (job_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
