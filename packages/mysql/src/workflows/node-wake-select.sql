-- The due jobs of one waiting lane ('sleep' or 'wait': no executor claims them), locked to end
-- them: the claim query with another lane, so the same covering range of jobs_claim (claim_lane,
-- priority, run_at) and SKIP LOCKED (two wakers never wait on, or end, the same job). A job held
-- by a paused run is in no range (held: its claim_lane is NULL).
-- Parameters: lane, limit
-- Returns: rows of (id, priority, run_at)
SELECT id, priority, run_at
  FROM jobs
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3) AND run_at <= NOW(3)
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
