-- Materialises jobs in one statement, whatever their number. The document is a JSON array of
-- [job_id_hex, task_id_hex, occurrence, kind, scheduled_for, run_at]; everything else a job holds
-- (tenant, target, retry, priority, lane) is copied from its task row, which the caller holds
-- locked in the same transaction, so a job describes what its task did when it was made and
-- nothing large crosses the wire. A (task_id, occurrence) that exists is skipped, so two
-- schedulers computing one occurrence make one row; affectedRows counts the rows inserted.
-- JSON_TABLE: MySQL 8.0.4+ and MariaDB 10.6+.
-- Parameters: created_at, updated_at, document
INSERT IGNORE INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
                         attempt, max_attempts, run_at, target, retry, created_at, updated_at)
SELECT v.id, t.tenant_id, t.id, v.occurrence, v.kind, v.scheduled_for, t.priority, t.lane, 'pending',
       0, CAST(JSON_UNQUOTE(JSON_EXTRACT(t.retry, '$.maxAttempts')) AS UNSIGNED), v.run_at, t.target,
       t.retry, ?, ?
  FROM (SELECT UNHEX(j.id) AS id, UNHEX(j.task_id) AS task_id, j.occurrence, j.kind, j.scheduled_for, j.run_at
          FROM JSON_TABLE(?, '$[*]' COLUMNS (
                 id CHAR(32) PATH '$[0]',
                 task_id CHAR(32) PATH '$[1]',
                 occurrence VARCHAR(80) PATH '$[2]',
                 kind VARCHAR(16) PATH '$[3]',
                 scheduled_for DATETIME(3) PATH '$[4]',
                 run_at DATETIME(3) PATH '$[5]')) AS j) AS v
  JOIN tasks t ON t.id = v.task_id
