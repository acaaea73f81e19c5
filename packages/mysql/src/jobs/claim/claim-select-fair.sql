-- The fair claim (docs/fair-share.md): candidate jobs of one lane in (priority, start tag) order,
-- locked for this claim; rows other claimers hold are skipped. Reads only columns of jobs_fair
-- (claim_lane, priority, claim_tag, run_at, id): a covering range scan, one range per priority
-- (the IN list) over the tagged jobs (claim_tag >= 0: untagged ones, NULL, sort below and are not
-- walked), read in index order, no filesort. Only due jobs are ever tagged; the run_at test is a
-- guard on the index entry, not the range.
-- Keyed by the claimer's group of partitions (one shard's: docs/sharding.md): `partition` is the
-- last column of jobs_fair, a filter on the index entry, so the ranges, their order and the
-- covering read are the same.
-- Parameters: lane, lead_us, partitions (list), limit
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, partition, priority, claim_tag, run_at)
SELECT id, `partition`, priority, claim_tag, run_at
  FROM jobs
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3) AND claim_tag >= 0
   AND run_at <= :now + INTERVAL ? MICROSECOND AND `partition` IN (?)
 ORDER BY priority, claim_tag, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
