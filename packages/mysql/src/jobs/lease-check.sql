-- After a renewal that matched fewer rows than it named: which claims are still this executor's
-- (and so only wait for their cancel), the rest were lost.
-- Parameters: rows ((id, attempt) list), claimed_by
SELECT id, attempt
  FROM jobs
 WHERE (id, attempt) IN (?) AND state = 'running' AND claimed_by = ?
