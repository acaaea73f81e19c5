-- Whether a lane has any job a claim could take: a plain read (no transaction, no lock) of one
-- entry of jobs_claim, covering, one range per priority up to run_at <= now + lead, LIMIT 1. An
-- idle lane asks this before claiming, so its empty polls are one statement instead of a claim's
-- transaction (and, for a fair lane, a tagging pass's too). Untagged jobs are pending too: when
-- this finds nothing, there is nothing to tag either.
-- Keyed by the claimer's group of partitions (one shard's: docs/sharding.md); `partition` is the
-- last column of jobs_claim, so the read stays covering and its ranges are the same.
-- Parameters: lane, lead_us, partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: one row (due = 1), or none
SELECT 1 AS due
  FROM jobs
 WHERE claim_lane = ? AND priority IN (0, 1, 2, 3) AND run_at <= :now + INTERVAL ? MICROSECOND
   AND `partition` IN (?)
 LIMIT 1
