-- Claims the selected jobs: the attempt increment is the new fencing token (invariant 3).
-- claimed_at is the start of the attempt the claim opens (its attempt row is written when it ends):
-- the claim's time, or the job's run_at for a job claimed ahead of it (a critical lane's lead),
-- whose call the executor starts at run_at.
-- Parameters: claimed_by, claimed_at, lease_seconds, ids (list), partitions (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET state = 'running', attempt = attempt + 1, claimed_by = ?, claimed_at = GREATEST(?, run_at),
       lease_expires_at = :now + INTERVAL ? SECOND, deadline_at = NULL,
       started_at = COALESCE(started_at, GREATEST(:now, run_at)), updated_at = :now
 WHERE id IN (?) AND state = 'pending' AND `partition` IN (?)
