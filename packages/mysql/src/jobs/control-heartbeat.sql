-- A heartbeat of an asynchronous (202) job: pushes its deadline out (never in) and keeps the
-- progress it reported. Fenced by the attempt token.
-- Parameters: extend_seconds, progress (JSON or NULL), id, attempt
UPDATE jobs
   SET deadline_at = GREATEST(COALESCE(deadline_at, NOW(3)), NOW(3) + INTERVAL ? SECOND),
       progress = COALESCE(?, progress), updated_at = NOW(3)
 WHERE id = ? AND attempt = ? AND state = 'running'
