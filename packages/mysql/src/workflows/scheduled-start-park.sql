-- An occurrence job whose run was stored in the same transaction (run id = job id) stays running,
-- held by no executor, until the run ends (workflow-runs.ts finishes it): the task's overlap policy
-- `forbid` sees a running occurrence while its run runs. Its lease is 9000-01-01 (never expires),
-- past which no release ever looks, and it has no deadline (the run's deadlineS is the workflow's
-- own). Fenced by the state and attempt it was locked with.
-- Keyed by the job's partition (docs/sharding.md).
-- Parameters: partition, id, attempt
-- Returns: affected rows
UPDATE jobs
   SET state = 'running', attempt = attempt + 1, claimed_by = NULL, claimed_at = NOW(3),
       started_at = COALESCE(started_at, NOW(3)), lease_expires_at = '9000-01-01 00:00:00.000',
       deadline_at = NULL, updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'pending'
