-- Issue 19: jitter, completion and failure callbacks, pause on failure (docs/scheduling.md,
-- docs/callbacks.md). Interval schedules need no column: a schedule is a JSON document.
--
-- tasks.jitter_s: the flexible window; the scheduler moves each job's run_at by a deterministic
--   offset within it (the occurrence key keeps the nominal time).
-- tasks.callbacks: {onSuccess?, onDead?} URLs, NULL when none.
-- tasks.pause_after_failures: N, NULL when the task never pauses itself.
-- tasks.failure_streak: dead scheduled occurrences in a row, counted in the transaction that
--   records each final outcome (so it holds across executors and restarts) and reset by a success
--   or a resume. paused_reason says why dsched paused the task.
-- jobs.callbacks, jobs.counts_failures: copied from the task when the job is made, like its target,
--   so an outcome batch knows from the claimed row whether it has a callback job to create or a
--   streak to count, without reading the task of every job it finishes.
-- Plain nullable or defaulted columns: an instant ADD COLUMN on MySQL 8 and MariaDB alike.
ALTER TABLE tasks
  ADD COLUMN jitter_s INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN callbacks JSON NULL,
  ADD COLUMN pause_after_failures SMALLINT UNSIGNED NULL,
  ADD COLUMN failure_streak INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN paused_reason VARCHAR(200) NULL;

ALTER TABLE jobs
  ADD COLUMN callbacks JSON NULL,
  ADD COLUMN counts_failures TINYINT UNSIGNED NOT NULL DEFAULT 0;
