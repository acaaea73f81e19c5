-- Pending jobs already due, per lane: the claim index's due range, counted without touching rows.
-- Parameters: none
-- Returns: rows of (lane, n)
SELECT claim_lane AS lane, COUNT(*) AS n
  FROM jobs
 WHERE claim_lane IN ('critical', 'default', 'long') AND priority IN (0, 1, 2, 3) AND run_at <= NOW(3)
 GROUP BY claim_lane
