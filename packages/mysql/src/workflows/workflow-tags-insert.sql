-- A run's tag index rows (docs/tags.md), at its submission, with the run's created_at (the runs
-- list's order). A run's tags never change.
-- Parameters: tags (JSON array of `key:value`), id
-- Returns: affected rows
INSERT INTO workflow_tags (tenant_id, tag, created_at, workflow_id, `partition`)
SELECT w.tenant_id, t.tag, w.created_at, w.id, w.`partition`
  FROM workflows w
  JOIN JSON_TABLE(?, '$[*]' COLUMNS (tag VARCHAR(193) PATH '$')) AS t
 WHERE w.id = ?
