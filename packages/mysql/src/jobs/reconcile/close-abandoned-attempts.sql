-- Closes the attempt rows of claims the reconciler took back that are still open (a parked 202
-- attempt's row), so history shows how each ended. abandoned-attempts-insert.sql wrote the others.
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- Parameters: now, error_class, error, now, partitions (list), job_ids (list), rows ((job_id, attempt) list)
-- Returns: affected rows
UPDATE job_attempts
   SET finished_at = ?, error_class = ?, error = ?,
       duration_ms = TIMESTAMPDIFF(MICROSECOND, started_at, ?) DIV 1000
 WHERE `partition` IN (?) AND job_id IN (?) AND (job_id, attempt) IN (?) AND finished_at IS NULL
