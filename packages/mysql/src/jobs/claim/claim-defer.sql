-- Moves jobs of tenants at their concurrency limit out of the way: a little later in the claim
-- order, so the jobs of other tenants behind them are claimed next (docs/tenant-concurrency.md).
-- Untagged too: in a fair lane the job is tagged again when it is due (docs/fair-share.md).
-- Parameters: delay_ms, ids (list), partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET run_at = :now + INTERVAL ? * 1000 MICROSECOND, fair_tag = NULL, updated_at = :now
 WHERE id IN (?) AND state = 'pending' AND `partition` IN (?)
