-- Cancels unstarted jobs of an edited, paused or deleted task and moves them off their
-- occurrence key ('superseded:<version>:<key>'), so the task can materialise the same instant
-- again later (an edited schedule, a resume, a replacement job) without the unique key
-- swallowing it. Fenced: a job claimed meanwhile is left alone. replaced: a replacement job takes
-- the occurrence's trace context, and with it the root span the archiver owes (flags bit 1), which
-- this job gives up, so the root is exported once (docs/tracing.md).
-- Keyed by the task's partition, which its jobs share (docs/sharding.md).
-- Parameters: version, last_error, replaced (0 or 1), partition, ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = 'cancelled', occurrence = CONCAT('superseded:', ?, ':', occurrence), last_error = ?,
       trace_context = IF(? = 1, CONCAT(LEFT(trace_context, 24), CHAR(ASCII(SUBSTRING(trace_context, 25)) & 1)),
                          trace_context),
       finished_at = NOW(3), updated_at = NOW(3)
 WHERE `partition` = ? AND id IN (?) AND state = 'pending' AND attempt = 0
