-- Candidate jobs of one lane in claim order. The IN list over priority turns the range into one
-- range per priority, read in index order, so no filesort runs and only returned rows are locked.
-- Parameters: lane, limit
SELECT id
  FROM jobs
 WHERE lane = ? AND state = 'pending' AND priority IN (0, 1, 2, 3) AND run_at <= NOW(3)
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
