-- A pending job whose cancel was requested while it ran (and which came back to pending) is
-- cancelled instead of claimed: a cancelled job never fires.
-- Parameters: ids (list), partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET state = 'cancelled', last_error = 'cancelled', finished_at = :now,
       claimed_by = NULL, lease_expires_at = NULL, updated_at = :now
 WHERE id IN (?) AND state = 'pending' AND cancel_requested = 1 AND `partition` IN (?)
