-- Gives expired claims back: to pending while attempts remain, to the DLQ when they are spent.
-- Fenced by attempt, so a claim renewed or finished since the select is left alone. The id list
-- lets the server walk the primary key; the (id, attempt) pairs are the fence.
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- Parameters: now, now, now, partitions (list), ids (list), rows ((id, attempt) list), now
-- Returns: affected rows
UPDATE jobs
   SET state = IF(attempt >= max_attempts, 'dead', 'pending'),
       last_error = IF(attempt >= max_attempts, 'claim lease expired on the last attempt', 'claim lease expired'),
       finished_at = IF(attempt >= max_attempts, ?, NULL),
       run_at = ?, claimed_by = NULL, lease_expires_at = NULL, deadline_at = NULL, updated_at = ?
 WHERE `partition` IN (?) AND id IN (?) AND (id, attempt) IN (?) AND state = 'running' AND lease_expires_at < ?
