-- Makes the callback jobs of finished jobs (docs/callbacks.md), in the transaction that recorded
-- their final outcome: one per reported job and attempt group (the occurrence key), so a batch
-- written again after a crash or a fence retry makes none twice (INSERT IGNORE on jobs_occurrence),
-- and a redriven job that finishes again reports again. The event is built here from the finished
-- row, which this transaction holds locked; only the new id and the capped response body of the
-- reported call come in the document. Jobs that did not end succeeded or dead, or whose task has
-- no URL for that outcome, make nothing. A callback job carries no callbacks of its own; it
-- carries its job's trace context, so the callback's call is a span of the occurrence's trace.
-- Times are RFC 3339 with milliseconds; ids are formatted as UUIDs.
-- The jobs come as a derived table of literal rows (withRows, sql.ts; vtgate refuses JSON_TABLE).
-- Keyed by the ends' partitions (the shard key): through vtgate the read goes to one shard, and each
-- callback job takes its job's partition.
-- Parameters: max_attempts, timeout_ms, retry (JSON), then :rows of (job_id, callback_id, response_body|null),
--   partitions (list)
-- Returns: affected rows (callback jobs made)
INSERT IGNORE INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
                         attempt, max_attempts, run_at, target, retry, created_at, updated_at, trace_context,
                         `partition`)
SELECT d.callback_id, s.tenant_id, s.task_id,
       CONCAT('callback:', LOWER(HEX(s.id)), ':', s.attempt_group), 'callback', NOW(3), s.priority,
       IF(s.lane = 'critical', 'critical', 'default'), 'pending', 0, ?, NOW(3),
       JSON_OBJECT(
         'url', JSON_UNQUOTE(JSON_EXTRACT(s.callbacks, IF(s.state = 'succeeded', '$.onSuccess', '$.onDead'))),
         'method', 'POST',
         'headers', JSON_OBJECT('dsched-event', CONCAT('job.', s.state)),
         'timeoutMs', ?,
         'body', JSON_OBJECT(
           'type', CONCAT('job.', s.state),
           'jobId', LOWER(INSERT(INSERT(INSERT(INSERT(HEX(s.id), 9, 0, '-'), 14, 0, '-'), 19, 0, '-'), 24, 0, '-')),
           'taskId', LOWER(INSERT(INSERT(INSERT(INSERT(HEX(s.task_id), 9, 0, '-'), 14, 0, '-'), 19, 0, '-'), 24, 0, '-')),
           'occurrence', s.occurrence,
           'kind', s.kind,
           'scheduledFor', CONCAT(DATE_FORMAT(s.scheduled_for, '%Y-%m-%dT%H:%i:%s.'),
                                  LPAD(MICROSECOND(s.scheduled_for) DIV 1000, 3, '0'), 'Z'),
           'finishedAt', CONCAT(DATE_FORMAT(s.finished_at, '%Y-%m-%dT%H:%i:%s.'),
                                LPAD(MICROSECOND(s.finished_at) DIV 1000, 3, '0'), 'Z'),
           'state', s.state,
           'attempts', s.attempt,
           'attemptGroup', s.attempt_group,
           'lastStatus', s.last_status,
           'lastError', s.last_error,
           'responseBody', d.response_body)),
       ?, NOW(3), NOW(3), s.trace_context, s.`partition`
  FROM (:rows) AS d
  JOIN jobs s ON s.id = d.job_id AND s.`partition` IN (?)
 WHERE s.state IN ('succeeded', 'dead') AND s.task_id IS NOT NULL AND s.kind <> 'callback'
   AND JSON_EXTRACT(s.callbacks, IF(s.state = 'succeeded', '$.onSuccess', '$.onDead')) IS NOT NULL
