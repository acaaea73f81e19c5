-- Pauses the tasks (of those given) whose failure streak reached their pauseAfterFailures, and
-- says why. Conditional: an active task at or over its threshold, so a task paused meanwhile (by
-- its tenant, or by another batch) is left alone and counted once. A single-table UPDATE assigns
-- left to right: paused_reason reads the streak before anything else changes. By primary key (the
-- state prefix of tasks_due would read every active task).
-- Keyed by the tasks' partitions (the shard key, docs/sharding.md).
-- Parameters: partitions (list), task_ids (list)
-- Returns: affected rows (tasks paused)
UPDATE tasks FORCE INDEX (PRIMARY)
   SET paused_reason = CONCAT('paused after ', failure_streak, ' dead occurrences in a row (pauseAfterFailures ',
                              pause_after_failures, ')'),
       state = 'paused', version = version + 1, updated_at = NOW(3)
 WHERE `partition` IN (?) AND id IN (?) AND state = 'active' AND pause_after_failures IS NOT NULL
   AND failure_streak >= pause_after_failures
