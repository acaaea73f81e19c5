-- Finished workflows move to Cassandra history (docs/history.md "Workflows", decision D29).
--
-- workflows_finished (state, finished_at): the archiver reads the oldest finished runs of each
-- final state from it, one capped range per state, as it reads jobs_finished for jobs.
-- archived_at: set once, conditionally, when the run's history copy is complete in Cassandra and
-- before any of its MySQL rows is deleted. From then on the run is history: reads of MySQL skip it
-- (its rows are being deleted in batches), a node retry answers 409, and an archiver that crashed
-- meanwhile goes straight on deleting. NULL for every live run and every run before this migration.
ALTER TABLE workflows
  ADD COLUMN archived_at DATETIME(3) NULL,
  ADD INDEX workflows_finished (state, finished_at);
