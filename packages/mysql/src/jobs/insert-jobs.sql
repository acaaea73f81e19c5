-- Materialises jobs in one statement, whatever their number. The document is a JSON array of
-- [job_id_hex, task_id_hex, occurrence, kind, scheduled_for_ms, trace_context_hex, run_at_ms]:
-- times as milliseconds since the epoch (a number is cheaper for JSON_TABLE to read than a DATETIME
-- string), run_at_ms left out when the job runs at its scheduled time (a missing element reads as
-- NULL); the trace context is born with the job (docs/tracing.md), 25 bytes as hex. Everything
-- else a job holds (tenant, target, retry, attempt budget, priority, lane) is copied from its task
-- row, which the caller holds locked in the same transaction, so a job describes what its task did
-- when it was made and nothing large crosses the wire. A (task_id, occurrence) that exists is
-- skipped, so two schedulers computing one occurrence make one row; affectedRows counts the rows
-- inserted. A job copies its task's callbacks, and a scheduled job whether its task pauses after
-- failures (counts_failures): its outcome then knows from the row what follows it. Its flow
-- control (key, parallelism, rate; docs/flow-control.md) is copied into columns the claim reads, and
-- its tags (docs/tags.md) into the job's own (insert-job-tags.sql then indexes them).
-- JSON_TABLE: MySQL 8.0.4+ and MariaDB 10.6+.
-- Parameters: created_at, updated_at, document
-- Returns: affected rows
INSERT IGNORE INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
                         attempt, max_attempts, run_at, target, retry, callbacks, counts_failures,
                         created_at, updated_at, flow_key, flow_parallelism, flow_rate, trace_context, tags,
                         `partition`)
SELECT UNHEX(j.id), t.tenant_id, t.id, j.occurrence, j.kind,
       TIMESTAMPADD(MICROSECOND, j.scheduled_ms * 1000, TIMESTAMP '1970-01-01 00:00:00'),
       t.priority, t.lane, 'pending', 0, t.max_attempts,
       TIMESTAMPADD(MICROSECOND, COALESCE(j.run_ms, j.scheduled_ms) * 1000, TIMESTAMP '1970-01-01 00:00:00'),
       t.target, t.retry, t.callbacks, j.kind = 'scheduled' AND t.pause_after_failures IS NOT NULL, ?, ?,
       JSON_UNQUOTE(JSON_EXTRACT(t.flow_control, '$.key')),
       CAST(NULLIF(JSON_UNQUOTE(JSON_EXTRACT(t.flow_control, '$.parallelism')), 'null') AS UNSIGNED),
       CAST(NULLIF(JSON_UNQUOTE(JSON_EXTRACT(t.flow_control, '$.ratePerSecond')), 'null') AS DECIMAL(12,3)),
       UNHEX(j.trace),
       t.tags, t.`partition`
  FROM JSON_TABLE(?, '$[*]' COLUMNS (
         id CHAR(32) PATH '$[0]',
         task_id CHAR(32) PATH '$[1]',
         occurrence VARCHAR(80) PATH '$[2]',
         kind VARCHAR(16) PATH '$[3]',
         scheduled_ms BIGINT PATH '$[4]',
         trace CHAR(50) PATH '$[5]',
         run_ms BIGINT PATH '$[6]')) AS j
  JOIN tasks t ON t.id = UNHEX(j.task_id)
