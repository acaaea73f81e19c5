-- The due jobs of one waiting lane ('sleep' or 'wait': no executor claims them), locked to end
-- them: the claim query with another lane, so the same covering range of jobs_claim (claim_lane,
-- priority, run_at) and SKIP LOCKED (two wakers never wait on, or end, the same job). A job held
-- by a paused run is in no range (held: its claim_lane is NULL).
-- Keyed by the waker's group of partitions (one shard on Vitess, docs/sharding.md): `partition`
-- is jobs_claim's last column, so the range keeps its order.
-- Parameters: lane, partitions (list), limit
-- Returns: rows of (id, priority, run_at, partition)
SELECT id, priority, run_at, `partition`
  FROM jobs
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3) AND run_at <= NOW(3) AND `partition` IN (?)
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
