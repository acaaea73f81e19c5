-- Fewer index writes per job (docs/performance.md).
--
-- InnoDB rewrites a secondary index entry (delete-mark the old one, insert the new one) whenever a
-- column of that index changes. Five indexes of jobs began with or contained `state`, so every
-- claim (pending -> running) and every outcome (running -> succeeded) rewrote five entries, most
-- of them in indexes whose readers never look at that transition. The keys below change only on
-- the transition their reader cares about:
--
-- claim_lane: the lane while the job is pending, NULL otherwise. jobs_claim (claim_lane, priority,
--   run_at) is the claim's sorted set; a claim takes the entry out of it, an outcome leaves it alone.
-- finished_state: the state once the job is finished (succeeded, dead, cancelled), NULL while it is
--   live. jobs_finished (finished_state, finished_at) is the archiver's queue and the DLQ count;
--   jobs_by_tenant_finished (tenant_id, finished_state, scheduled_for) is job-api's list of a
--   tenant's finished jobs by state (the DLQ among them). Both change once, at the outcome.
-- jobs_deadline (deadline_at): deadline_at is set only while an asynchronous (202) job is parked,
--   so ordinary claims and outcomes never touch it.
-- jobs_by_tenant (tenant_id, state, scheduled_for) goes: lists of live jobs by state walk
--   jobs_by_tenant_time, which no state change touches.
--
-- claimed_at: when the current claim was taken (the open attempt's start). The attempt row is
-- written once, when the attempt ends, instead of opened at the claim and closed at the outcome;
-- until then the open attempt is read from the job row (claimed_by, claimed_at).
--
-- Generated columns are STORED and nullable (MySQL 8 and MariaDB both index them; a NOT NULL
-- generated column is MySQL only).
ALTER TABLE jobs
  ADD COLUMN claim_lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin
    AS (CASE WHEN state = 'pending' THEN lane END) STORED AFTER lane,
  ADD COLUMN finished_state VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin
    AS (CASE WHEN state IN ('succeeded', 'dead', 'cancelled') THEN state END) STORED AFTER state,
  ADD COLUMN claimed_at DATETIME(3) NULL AFTER claimed_by,
  DROP INDEX jobs_claim,
  ADD INDEX jobs_claim (claim_lane, priority, run_at),
  DROP INDEX jobs_by_state_finished,
  ADD INDEX jobs_finished (finished_state, finished_at),
  DROP INDEX jobs_by_state_deadline,
  ADD INDEX jobs_deadline (deadline_at),
  DROP INDEX jobs_by_tenant,
  ADD INDEX jobs_by_tenant_finished (tenant_id, finished_state, scheduled_for);

-- Attempts of claims that are still open: the claim's time was their started_at.
UPDATE jobs j JOIN job_attempts a ON a.job_id = j.id AND a.attempt = j.attempt
   SET j.claimed_at = a.started_at
 WHERE j.state = 'running';
