-- claim-select-fair.sql resumed after the last job this claimer locked (its cursor: priority,
-- tag, run_at, id), for the reason claim-select-after.sql gives: the rest of the cursor's
-- priority, then the lower priorities, in index order, no filesort.
-- Keyed by the claimer's group of partitions, as claim-select-fair.sql.
-- Parameters: lane, lead_us, partitions (list), priority, tag, priority, tag, run_at, priority, tag, run_at, id, priority, limit
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, partition, priority, claim_tag, run_at)
SELECT id, `partition`, priority, claim_tag, run_at
  FROM jobs
 WHERE claim_lane = ? AND claim_tag >= 0 AND run_at <= :now + INTERVAL ? MICROSECOND
   AND `partition` IN (?)
   AND ((priority = ? AND claim_tag > ?)
     OR (priority = ? AND claim_tag = ? AND run_at > ?)
     OR (priority = ? AND claim_tag = ? AND run_at = ? AND id > ?)
     OR priority IN (?))
 ORDER BY priority, claim_tag, run_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
