-- Pauses or resumes a running run: while paused, nodes that become ready wait as `ready` instead
-- of getting jobs (the walk goes on; dispatch holds).
-- Parameters: paused (0 | 1), id
-- Returns: affected rows
UPDATE workflows
   SET paused = ?, updated_at = NOW(3)
 WHERE id = ? AND state = 'running'
