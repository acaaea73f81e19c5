-- A redrive: the dead job becomes pending again as a new attempt group. Its id, and so its
-- Idempotency-Key, stays; `attempt` keeps counting so it stays a fencing token (a late result of
-- the old group is still refused); max_attempts grows by the policy's maxAttempts so the new
-- group gets the full budget. It comes back unheld (held is read only while pending: a job held
-- and then ended keeps the flag).
-- Keyed by the locked rows' partitions (docs/sharding.md).
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = 'pending', attempt_group = attempt_group + 1,
       max_attempts = attempt + CAST(JSON_UNQUOTE(JSON_EXTRACT(retry, '$.maxAttempts')) AS UNSIGNED),
       run_at = NOW(3), finished_at = NULL, claimed_by = NULL, lease_expires_at = NULL,
       deadline_at = NULL, cancel_requested = 0, held = 0, updated_at = NOW(3)
 WHERE `partition` IN (?) AND id IN (?) AND state = 'dead'
