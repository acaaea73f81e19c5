-- The shard key (docs/sharding.md, decision D35): every hot row carries its `partition`, so each
-- transaction of materialise, claim, outcome and its follow-ups, the walk, the node waker and
-- archive names one partition per job, on one server as on a sharded Vitess keyspace (the
-- `reverse_bits` vindex on it). Tasks have had the column since they were partitioned.
--
-- Whose partition each row takes: a task's jobs (scheduled, trigger, backfill, callbacks) and its
-- occurrence skips the task's; a workflow run, its nodes, edges, outputs and node jobs the run's;
-- attempts their job's; job and run tag index rows their job's or run's (task_tags, written
-- with the task outside the hot paths, are left for the task-creation step of docs/sharding.md). New job and run ids carry their partition
-- in their last two bytes (newId(now, partition), partitionOfId), written by the code from now on.
--
-- Rows stored before this migration: a job of a task takes its task's partition (so a job in
-- flight and its follow-ups, the task's streak and pause and its callback job, stay in one
-- partition); a run started by an occurrence job (same id) takes that job's; any other run what
-- its id says (its last two bytes mod P, P being the scheduler's partition count: its lease rows,
-- 64 when it never ran); a node job its run's; a job of neither (none are made) what its id says.
-- A lookup by id alone of such an old row may therefore find it in another partition than its id
-- names; docs/sharding.md says how the statements keyed by id allow for it.
--
-- No DEFAULT: an insert that forgets the partition fails (strict mode) instead of writing 0.
-- After the id in jobs and workflows (whose indexes are rebuilt anyway), so a later column added at
-- the end stays last; at the end of the other rows (instant on MySQL 8 and MariaDB 10.6).
--
-- The indexes the per-partition reads range over end with (id, `partition`) (or their own
-- primary key, then `partition`): the key is read from the index, so those reads stay covering
-- and their order (the index's prefix, then the id) is the one they had.

ALTER TABLE jobs
  ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL AFTER id,
  DROP INDEX jobs_claim,
  ADD INDEX jobs_claim (claim_lane, priority, run_at, id, `partition`),
  DROP INDEX jobs_fair,
  ADD INDEX jobs_fair (claim_lane, priority, claim_tag, run_at, id, `partition`),
  DROP INDEX jobs_fair_heads,
  ADD INDEX jobs_fair_heads (claim_lane, claim_tag, tenant_id, run_at, id, `partition`),
  DROP INDEX jobs_by_state_lease,
  ADD INDEX jobs_by_state_lease (state, lease_expires_at, id, `partition`),
  DROP INDEX jobs_finished,
  ADD INDEX jobs_finished (finished_state, finished_at, id, `partition`),
  DROP INDEX jobs_deadline,
  ADD INDEX jobs_deadline (deadline_at, id, `partition`);

ALTER TABLE workflows
  ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL AFTER id,
  DROP INDEX workflows_by_state,
  ADD INDEX workflows_by_state (state, deadline_at, id, `partition`),
  DROP INDEX workflows_finished,
  ADD INDEX workflows_finished (state, finished_at, id, `partition`);

ALTER TABLE job_attempts ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL;

ALTER TABLE occurrence_skips ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL;

ALTER TABLE workflow_nodes
  ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL,
  DROP INDEX workflow_nodes_unwalked,
  ADD INDEX workflow_nodes_unwalked (walk_pending, workflow_id, node_id, `partition`);

ALTER TABLE workflow_edges ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL;

ALTER TABLE workflow_node_outputs ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL;

ALTER TABLE job_tags ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL;

ALTER TABLE workflow_tags ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL;

-- The backfill. What an id says: its last two bytes, mod P.
UPDATE jobs
   SET `partition` = (ORD(SUBSTRING(id, 15, 1)) * 256 + ORD(SUBSTRING(id, 16, 1))) MOD
       (SELECT IF(COUNT(*) = 0, 64, COUNT(*)) FROM leases WHERE name LIKE 'scheduler.partition.%');

UPDATE jobs j JOIN tasks t ON t.id = j.task_id SET j.`partition` = t.`partition`;

UPDATE workflows
   SET `partition` = (ORD(SUBSTRING(id, 15, 1)) * 256 + ORD(SUBSTRING(id, 16, 1))) MOD
       (SELECT IF(COUNT(*) = 0, 64, COUNT(*)) FROM leases WHERE name LIKE 'scheduler.partition.%');

UPDATE workflows w JOIN jobs j ON j.id = w.id SET w.`partition` = j.`partition`;

UPDATE jobs j JOIN workflows w ON w.id = j.workflow_id SET j.`partition` = w.`partition`
 WHERE j.task_id IS NULL;

UPDATE job_attempts a JOIN jobs j ON j.id = a.job_id SET a.`partition` = j.`partition`;

UPDATE occurrence_skips s JOIN tasks t ON t.id = s.task_id SET s.`partition` = t.`partition`;

UPDATE workflow_nodes n JOIN workflows w ON w.id = n.workflow_id SET n.`partition` = w.`partition`;

UPDATE workflow_edges e JOIN workflows w ON w.id = e.workflow_id SET e.`partition` = w.`partition`;

UPDATE workflow_node_outputs o JOIN workflows w ON w.id = o.workflow_id SET o.`partition` = w.`partition`;

UPDATE job_tags g JOIN jobs j ON j.id = g.job_id SET g.`partition` = j.`partition`;

UPDATE workflow_tags g JOIN workflows w ON w.id = g.workflow_id SET g.`partition` = w.`partition`;
