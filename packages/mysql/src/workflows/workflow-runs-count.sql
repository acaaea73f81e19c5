-- Runs still running, paused or not, for the runs-by-state gauge: the running range of
-- workflows_by_state, each run's row read for `paused` (as many as there are running runs; the
-- finished ones, however many, are never read).
-- Parameters: none
-- Returns: rows of (paused, n)
SELECT paused, COUNT(*) AS n
  FROM workflows
 WHERE state = 'running'
 GROUP BY paused
