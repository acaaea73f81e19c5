-- A heartbeat of an asynchronous (202) job: pushes its heartbeat timeout (lease_expires_at) out,
-- never in, and keeps the progress it reported; deadline_at, the time by which it must complete,
-- stays. Fenced by the attempt token.
-- Parameters: extend_seconds, progress (JSON or NULL), partition (the locked row's), id, attempt
-- Returns: affected rows
UPDATE jobs
   SET lease_expires_at = GREATEST(COALESCE(lease_expires_at, NOW(3)), NOW(3) + INTERVAL ? SECOND),
       progress = COALESCE(?, progress), updated_at = NOW(3)
 WHERE `partition` = ? AND id = ? AND attempt = ? AND state = 'running'
