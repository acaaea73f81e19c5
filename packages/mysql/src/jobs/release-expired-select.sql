-- Running jobs whose claim lease has expired: their executor died or lost the database.
-- Parameters: limit
SELECT id, attempt
  FROM jobs
 WHERE state = 'running' AND lease_expires_at < NOW(3)
 ORDER BY lease_expires_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
