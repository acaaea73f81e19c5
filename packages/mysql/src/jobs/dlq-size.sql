-- Jobs in the dead-letter queue (walks jobs_by_state_finished).
-- Parameters: none
SELECT COUNT(*) AS n FROM jobs WHERE state = 'dead'
