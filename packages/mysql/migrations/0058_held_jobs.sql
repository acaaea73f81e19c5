-- A held job is a flag, not a date (issue 25, decision D46). A pending job kept from every claim
-- (today: the node jobs of a paused workflow run) had its run_at moved to a sentinel, 9000-01-01,
-- past every claim's range: the job lost its due time, sat in the claim indexes all the same, and
-- every reader had to know the date. `held` says it instead, and claim_lane, the generated column
-- that puts a job in the three claim indexes (jobs_claim, jobs_fair, jobs_fair_heads), is NULL for
-- a held job as for one that is not pending: a held job is in no claim's range, whatever its
-- run_at, and run_at keeps the time it is due once released (a retry's backoff runs on through a
-- hold). `held` is read only while the job is pending; each way into pending (a redrive, a node
-- job revived by a node retry) clears it.
--
-- The column is added last (instant on MariaDB and MySQL); the claim_lane redefinition copies the
-- table and rebuilds its indexes on both engines (a generated column's expression cannot change in
-- place).
ALTER TABLE jobs ADD COLUMN held TINYINT UNSIGNED NOT NULL DEFAULT 0;
ALTER TABLE jobs MODIFY COLUMN claim_lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin
  AS (CASE WHEN state = 'pending' AND held = 0 THEN lane END) STORED;

-- The jobs held under the sentinel: their due time was overwritten, so the time they were last
-- written (the hold, or the outcome that sent them back to pending) stands for it, or a sleep or
-- wait node's wake time (its scheduled_for, migration 0057) when that is later. A release then
-- makes them due as the sentinel's release did (GREATEST(now, scheduled_for)).
UPDATE jobs SET held = 1, run_at = GREATEST(updated_at, scheduled_for)
 WHERE state = 'pending' AND run_at = '9000-01-01 00:00:00.000';
