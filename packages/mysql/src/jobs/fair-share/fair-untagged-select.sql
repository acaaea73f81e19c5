-- Due jobs of a lane in the group's partitions that have no tag for their attempt yet, in due
-- order: the ones the tagger tags now. They are the claim_tag IS NULL part of jobs_fair (one range
-- per priority, up to run_at <= now; the group's condition on the index's last column), below the
-- fair claim's range, so a job not yet due is neither tagged nor claimed.
-- A plain read: the claim never takes an untagged row, and the tag update is conditional.
-- FORCE INDEX: tenant_id is not in jobs_fair, and without it the optimizer reads jobs_claim, which
-- walks every tagged pending job too, then sorts (both servers take the hint). ORDER BY leaves out
-- claim_tag (NULL throughout): with it in, MariaDB sorts what the index already gives in order.
-- Parameters: lane, lead_us, partitions (list), limit
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: rows of (id, tenant_id)
SELECT id, tenant_id
  FROM jobs FORCE INDEX (jobs_fair)
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3) AND claim_tag IS NULL
   AND run_at <= :now + INTERVAL ? MICROSECOND AND `partition` IN (?)
 ORDER BY priority, run_at, id
 LIMIT ?
