-- One tag's live run index rows in a range, counted up to a cap: which tag of a filter is rarest.
-- Parameters: tenant_id, tag, from, to, cap
-- Returns: one row of (n)
SELECT COUNT(*) AS n
  FROM (SELECT 1 FROM workflow_tags WHERE tenant_id = ? AND tag = ? AND created_at >= ? AND created_at <= ? LIMIT ?) c
