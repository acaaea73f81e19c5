-- A run's tag index rows (docs/tags.md), at its submission, with the run's created_at (the runs
-- list's order), copied from the run's row; the tags come as a derived table of literal rows
-- (withRows, sql.ts: vtgate refuses JSON_TABLE). A run's tags never change. Keyed by the run's
-- partition: unkeyed, the read of the run went to every shard, and the submission's transaction
-- with it (docs/sharding.md).
-- Parameters: :rows of (tag), partition, id
-- Returns: affected rows
INSERT INTO workflow_tags (tenant_id, tag, created_at, workflow_id, `partition`)
SELECT w.tenant_id, t.tag, w.created_at, w.id, w.`partition`
  FROM workflows w
  JOIN (:rows) AS t
 WHERE w.`partition` = ? AND w.id = ?
