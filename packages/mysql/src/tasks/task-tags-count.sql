-- One tag's task index rows after a cursor, counted up to a cap: which tag of a filter is rarest.
-- Parameters: tenant_id, tag, after_id, cap
-- Returns: one row of (n)
SELECT COUNT(*) AS n FROM (SELECT 1 FROM task_tags WHERE tenant_id = ? AND tag = ? AND task_id > ? LIMIT ?) c
