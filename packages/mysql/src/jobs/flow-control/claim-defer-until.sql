-- Defers jobs over their flow control limit (docs/flow-control.md) each to its own time (a rate's
-- next start, or a moment later), untagged like claim-defer.sql. Not a failure and not an
-- attempt: attempt is unchanged, only run_at moves. One single-table UPDATE whose run_at is a CASE
-- on the id (withCases), keyed by the claimer's group of partitions: vtgate refuses an UPDATE
-- joined to a derived table of literal rows on a sharded table (docs/sharding.md, D55).
-- Parameters: cases ((id, run_at) pairs), ids (list), partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET run_at = CASE id :cases END, fair_tag = NULL, updated_at = :now
 WHERE id IN (?) AND state = 'pending' AND `partition` IN (?)
