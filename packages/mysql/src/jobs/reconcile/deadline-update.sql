-- Fails asynchronous jobs past their deadline: retried after a backoff while attempts remain, to
-- the DLQ when they are spent. The backoff is the domain's (outcome.ts backoffMs): full jitter
-- under min(maxBackoffMs, initialBackoffMs * 2^(attempt-1)), read from the job's retry policy.
-- Fenced by attempt and by the deadline still being past.
-- now: the pass's instant (reconcile.ts reads it once: the database clock, or a test's).
-- Keyed by the reconciler's group of partitions (one shard on Vitess, docs/sharding.md).
-- Parameters: now, now, now, partitions (list), ids (list), rows ((id, attempt) list), now
-- Returns: affected rows
UPDATE jobs
   SET state = IF(attempt >= max_attempts, 'dead', 'pending'),
       last_error = IF(attempt >= max_attempts, 'deadline exceeded on the last attempt', 'deadline exceeded'),
       finished_at = IF(attempt >= max_attempts, ?, NULL),
       run_at = CAST(? AS DATETIME(3)) + INTERVAL FLOOR(RAND() * LEAST(
                  CAST(JSON_UNQUOTE(JSON_EXTRACT(retry, '$.maxBackoffMs')) AS UNSIGNED),
                  CAST(JSON_UNQUOTE(JSON_EXTRACT(retry, '$.initialBackoffMs')) AS UNSIGNED) * POW(2, attempt - 1)
                )) * 1000 MICROSECOND,
       claimed_by = NULL, lease_expires_at = NULL, deadline_at = NULL, updated_at = ?
 WHERE `partition` IN (?) AND id IN (?) AND (id, attempt) IN (?) AND state = 'running' AND deadline_at < ?
