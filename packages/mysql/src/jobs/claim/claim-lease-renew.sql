-- Renews the claim lease of every call an executor has in flight, in one statement, fenced by
-- (id, attempt) and owner. A job whose cancel was requested is not renewed: its call is aborted.
-- Parameters: lease_seconds, rows ((id, attempt) list), claimed_by, partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET lease_expires_at = :now + INTERVAL ? SECOND
 WHERE (id, attempt) IN (?) AND state = 'running' AND claimed_by = ? AND cancel_requested = 0
   AND `partition` IN (?)
