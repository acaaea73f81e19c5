-- The oldest job waiting for the archiver in each finished state: succeeded and cancelled jobs
-- become archivable at once, dead ones when their DLQ retention ran out (the caller adds the
-- retention). Each MIN is one probe of jobs_finished. The caller takes the least (archive.ts):
-- through vtgate, which merges each MIN over the shards itself, a LEAST or COALESCE of them
-- evaluated in vtgate panics on a NULL one (v24: "evalengine.eval is nil, not
-- *evalengine.evalTemporal", the connection lost), so the statement returns them as they are.
-- Parameters: dead_retention_seconds
-- Returns: rows of (succeeded, cancelled, dead, db_now)
SELECT (SELECT MIN(finished_at) FROM jobs WHERE finished_state = 'succeeded') AS succeeded,
       (SELECT MIN(finished_at) FROM jobs WHERE finished_state = 'cancelled') AS cancelled,
       (SELECT MIN(finished_at) FROM jobs
         WHERE finished_state = 'dead' AND finished_at < NOW(3) - INTERVAL ? SECOND) AS dead,
       NOW(3) AS db_now
