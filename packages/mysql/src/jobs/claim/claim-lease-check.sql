-- After a renewal that matched fewer rows than it named: which claims are still this executor's
-- (and whether their cancel was requested); the claims not returned were lost.
-- Parameters: rows ((id, attempt) list), claimed_by, partitions (list)
-- Returns: rows of (id, attempt, cancel_requested)
SELECT id, attempt, cancel_requested
  FROM jobs
 WHERE (id, attempt) IN (?) AND state = 'running' AND claimed_by = ? AND `partition` IN (?)
