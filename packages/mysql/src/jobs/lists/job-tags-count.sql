-- One tag's live job index rows in a range, counted up to a cap: which tag of a filter is rarest.
-- Parameters: tenant_id, tag, from, to, cap
-- Returns: one row of (n)
SELECT COUNT(*) AS n
  FROM (SELECT 1 FROM job_tags WHERE tenant_id = ? AND tag = ? AND scheduled_for >= ? AND scheduled_for <= ? LIMIT ?) c
