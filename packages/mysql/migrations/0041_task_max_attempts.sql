-- A task's attempt budget as a column, read from its retry policy when the task is written.
--
-- Every job the scheduler materialises copies max_attempts from its task. Extracting it from the
-- retry JSON in the job insert (JSON_EXTRACT per row) was a tenth of that statement's time; as a
-- stored generated column it is extracted once per task write and copied like the other columns.
-- Nullable: a NOT NULL generated column is MySQL only (the task API always writes maxAttempts).
ALTER TABLE tasks
  ADD COLUMN max_attempts INT UNSIGNED
    AS (CAST(JSON_UNQUOTE(JSON_EXTRACT(retry, '$.maxAttempts')) AS UNSIGNED)) STORED AFTER retry;
