-- Defers jobs over their flow control limit (docs/flow-control.md) each to its own time (a rate's
-- next start, or a moment later), untagged like claim-defer.sql. Not a failure and not an
-- attempt: attempt is unchanged, only run_at moves.
-- Parameters: rows (derived: id, run_at)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs j
  JOIN (:rows) v ON j.id = v.id
   SET j.run_at = v.run_at, j.fair_tag = NULL, j.updated_at = :now
 WHERE j.state = 'pending'
