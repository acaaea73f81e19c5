-- claim-select.sql, resumed after the last job this claimer locked (its cursor: priority, run_at,
-- id). Every claim rewrites the index entry it takes, and InnoDB keeps the old, delete-marked entry
-- until purge removes it, so during a drain the head of the due range is a growing run of entries
-- already claimed, and a locking scan from the head walks (and tries to lock) every one of them:
-- measured, most of a claim's cost at a peak. This scan starts after the cursor instead: the rest
-- of the cursor's priority, then the lower priorities. (An empty range also walks the delete-marked
-- run in front of the next live entry, so the higher priorities are not read here at all.) A job
-- that became due behind the cursor, or at a higher priority, is taken by the next claim from the
-- head: the claimer goes back to the head after a claim that was not full, and at least every
-- second (docs/executor.md). The ranges are read in index order: no filesort.
-- Keyed by the claimer's group of partitions, as claim-select.sql (a cursor is per lane and group).
-- Parameters: lane, lead_us, partitions (list), priority, run_at, priority, run_at, id, priority, limit
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, partition, priority, run_at)
SELECT id, `partition`, priority, run_at
  FROM jobs
 WHERE claim_lane = ? AND run_at <= :now + INTERVAL ? MICROSECOND AND `partition` IN (?)
   AND ((priority = ? AND run_at > ?) OR (priority = ? AND run_at = ? AND id > ?) OR priority IN (?))
 ORDER BY priority, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
