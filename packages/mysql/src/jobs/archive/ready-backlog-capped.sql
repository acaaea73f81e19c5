-- Whether delivery is busy: pending jobs already due, counted up to a cap. A covering range of
-- jobs_claim per lane and priority, so the cost is bounded by the cap whatever the backlog. The
-- index is forced: with few rows the optimizer may prefer another index that would walk every
-- pending job not yet due (the lookahead's, at a peak) to find the due ones.
-- Parameters: cap
-- Returns: rows of (n)
SELECT COUNT(*) AS n
  FROM (SELECT 1
          FROM jobs FORCE INDEX (jobs_claim)
         WHERE claim_lane IN ('critical', 'default', 'long') AND priority IN (0, 1, 2, 3)
           AND run_at <= NOW(3)
         LIMIT ?) due
