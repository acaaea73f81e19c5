-- Materialises jobs in one statement, whatever their number. The jobs come as a derived table of
-- literal rows (withRows, sql.ts: vtgate refuses JSON_TABLE, docs/sharding.md) of (id, task_id,
-- occurrence, kind, scheduled_for, trace, run_at); the trace context is born with the job
-- (docs/tracing.md), 25 bytes. Everything
-- else a job holds (tenant, target, retry, attempt budget, priority, lane) is copied from its task
-- row, which the caller holds locked in the same transaction, so a job describes what its task did
-- when it was made and nothing large crosses the wire. A (task_id, occurrence) that exists is
-- skipped, so two schedulers computing one occurrence make one row; affectedRows counts the rows
-- inserted. A job copies its task's callbacks, and a scheduled job whether its task pauses after
-- failures (counts_failures): its outcome then knows from the row what follows it. Its flow
-- control (key, parallelism, rate; docs/flow-control.md) is copied into columns the claim reads, and
-- its tags (docs/tags.md) into the job's own (insert-job-tags.sql then indexes them).
-- Keyed by the jobs' partitions (`t.partition IN`, their tasks'; each inserted row carries its
-- task's), so through vtgate the read of the tasks and every row written reach one shard when the
-- partitions are one group's (docs/sharding.md).
-- Parameters: created_at, updated_at, then :rows, then partitions (list)
-- Returns: affected rows
INSERT IGNORE INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
                         attempt, max_attempts, run_at, target, retry, callbacks, counts_failures,
                         created_at, updated_at, flow_key, flow_parallelism, flow_rate, trace_context, tags,
                         `partition`)
SELECT j.id, t.tenant_id, t.id, j.occurrence, j.kind, j.scheduled_for,
       t.priority, t.lane, 'pending', 0, t.max_attempts, j.run_at,
       t.target, t.retry, t.callbacks, j.kind = 'scheduled' AND t.pause_after_failures IS NOT NULL, ?, ?,
       JSON_UNQUOTE(JSON_EXTRACT(t.flow_control, '$.key')),
       CAST(NULLIF(JSON_UNQUOTE(JSON_EXTRACT(t.flow_control, '$.parallelism')), 'null') AS UNSIGNED),
       CAST(NULLIF(JSON_UNQUOTE(JSON_EXTRACT(t.flow_control, '$.ratePerSecond')), 'null') AS DECIMAL(12,3)),
       j.trace,
       t.tags, t.`partition`
  FROM (:rows) AS j
  JOIN tasks t ON t.id = j.task_id
 WHERE t.`partition` IN (?)
