-- Terminal jobs ready to move to history: succeeded and cancelled at once, dead ones after their
-- retention in the DLQ.
-- Parameters: dead_retention_seconds, limit
SELECT id
  FROM jobs
 WHERE state IN ('succeeded', 'cancelled')
    OR (state = 'dead' AND finished_at < NOW(3) - INTERVAL ? SECOND)
 LIMIT ?
