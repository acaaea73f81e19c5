-- Pending jobs already due, per lane: the claim index's due range, counted without touching rows.
-- Parameters: none
SELECT lane, COUNT(*) AS n
  FROM jobs
 WHERE lane IN ('critical', 'default', 'long') AND state = 'pending' AND priority IN (0, 1, 2, 3)
   AND run_at <= NOW(3)
 GROUP BY lane
