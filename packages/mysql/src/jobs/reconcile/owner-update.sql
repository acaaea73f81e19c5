-- Gives back the claims of executors that are gone, without waiting for their leases; fenced by
-- attempt and owner, so a claim taken over meanwhile is left alone.
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- Parameters: now, now, now, partitions (list), ids (list), rows ((id, attempt) list), owners (list)
-- Returns: affected rows
UPDATE jobs
   SET state = IF(attempt >= max_attempts, 'dead', 'pending'),
       last_error = IF(attempt >= max_attempts, 'executor gone on the last attempt', 'executor gone'),
       finished_at = IF(attempt >= max_attempts, ?, NULL),
       run_at = ?, claimed_by = NULL, lease_expires_at = NULL, updated_at = ?
 WHERE `partition` IN (?) AND id IN (?) AND (id, attempt) IN (?) AND state = 'running' AND claimed_by IN (?)
