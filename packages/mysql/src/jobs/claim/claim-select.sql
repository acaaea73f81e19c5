-- Candidate jobs of one lane in claim order, locked for this claim; rows other claimers hold are
-- skipped. Reads only columns of jobs_claim (claim_lane, priority, run_at, id), so the plan is a
-- covering range scan: one range per priority (the IN list) up to run_at <= now, read in index
-- order, no filesort, and only the rows returned are locked. Selecting more columns here lets the
-- optimizer switch to a ref scan on claim_lane that walks past every not-yet-due job of a higher
-- priority; docs/executor.md shows both plans. priority and run_at are the claim's cursor.
-- lead_us: how far ahead of run_at a job may be claimed (0 but for a lane with a lead, whose
-- executor holds the job until run_at; docs/executor.md).
-- Keyed by the claimer's group of partitions (one shard's: docs/sharding.md): `partition` is the
-- last column of jobs_claim, a filter on the index entry, so the ranges and their order are the
-- same and the read stays covering; it is returned for the statements that follow, keyed by it.
-- Parameters: lane, lead_us, partitions (list), limit
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, partition, priority, run_at)
SELECT id, `partition`, priority, run_at
  FROM jobs
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3) AND run_at <= :now + INTERVAL ? MICROSECOND
   AND `partition` IN (?)
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
