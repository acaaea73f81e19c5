-- Jobs in the dead-letter queue (a covering range of jobs_finished).
-- Parameters: none
-- Returns: rows of (n)
SELECT COUNT(*) AS n FROM jobs WHERE finished_state = 'dead'
