-- Finished jobs ready to move to history, oldest first: succeeded and cancelled at once, dead ones
-- after their retention in the DLQ. One range of jobs_finished per state, each read in index order
-- and capped, so the statement touches at most 3 x limit index entries.
-- Parameters: limit, limit, dead_retention_seconds, limit
-- Returns: rows of (id, finished_at) (one result set of every part)
(SELECT id, finished_at FROM jobs WHERE finished_state = 'succeeded' ORDER BY finished_at LIMIT ?)
UNION ALL
(SELECT id, finished_at FROM jobs WHERE finished_state = 'cancelled' ORDER BY finished_at LIMIT ?)
UNION ALL
(SELECT id, finished_at FROM jobs
  WHERE finished_state = 'dead' AND finished_at < NOW(3) - INTERVAL ? SECOND ORDER BY finished_at LIMIT ?)
