-- Recovery, history and the DLQ (issue 5).
--
-- attempt_group: a redrive from the DLQ starts a new group of attempts on the same job row, so the
-- job keeps its id (its Idempotency-Key) while `attempt` keeps rising as the fencing token.
-- jobs_by_state_deadline: the reconciler's walk over asynchronous jobs past their deadline.
-- jobs_by_task: a task's runs newest first, and the audit's occurrence lookup by time.
-- jobs_by_tenant_time: the tenant's jobs newest first when no state is asked for.
ALTER TABLE jobs
  ADD COLUMN attempt_group INT UNSIGNED NOT NULL DEFAULT 1 AFTER max_attempts,
  ADD KEY jobs_by_state_deadline (state, deadline_at),
  ADD KEY jobs_by_task (task_id, scheduled_for),
  ADD KEY jobs_by_tenant_time (tenant_id, scheduled_for);

-- Occurrences a schedule implies but that were deliberately not run: a misfire policy, the overlap
-- policy, or a pause. One row per decision covers a range of occurrences, so a week-long pause is
-- one row. The audit (GET /v1/tasks/{id}/audit) reports occurrences in a range as `skipped`;
-- any other occurrence without a job is `missing`, a bug.
CREATE TABLE occurrence_skips (
  task_id BINARY(16) NOT NULL,
  skipped_from DATETIME(3) NOT NULL,
  skipped_to DATETIME(3) NOT NULL,
  reason VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (task_id, skipped_from, reason)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
