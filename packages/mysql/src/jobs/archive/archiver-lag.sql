-- When the oldest job waiting for the archiver became archivable: succeeded and cancelled jobs at
-- once, dead ones when their DLQ retention ran out. Each MIN is one probe of jobs_finished.
-- Parameters: dead_retention_seconds, dead_retention_seconds
-- Returns: rows of (oldest, db_now)
SELECT LEAST(
         COALESCE((SELECT MIN(finished_at) FROM jobs WHERE finished_state = 'succeeded'), NOW(3)),
         COALESCE((SELECT MIN(finished_at) FROM jobs WHERE finished_state = 'cancelled'), NOW(3)),
         COALESCE((SELECT MIN(finished_at) + INTERVAL ? SECOND FROM jobs
                    WHERE finished_state = 'dead' AND finished_at < NOW(3) - INTERVAL ? SECOND), NOW(3))
       ) AS oldest,
       NOW(3) AS db_now
