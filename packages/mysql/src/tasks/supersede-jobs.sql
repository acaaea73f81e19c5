-- Cancels unstarted jobs of an edited, paused or deleted task and moves them off their
-- occurrence key ('superseded:<version>:<key>'), so the task can materialise the same instant
-- again later (an edited schedule, a resume, a replacement job) without the unique key
-- swallowing it. Fenced: a job claimed meanwhile is left alone.
-- Parameters: version, last_error, ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = 'cancelled', occurrence = CONCAT('superseded:', ?, ':', occurrence), last_error = ?,
       finished_at = NOW(3), updated_at = NOW(3)
 WHERE id IN (?) AND state = 'pending' AND attempt = 0
