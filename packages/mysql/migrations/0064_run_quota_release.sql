-- A run's place in its tenant's quota given back after the run's commit, not inside it (decision
-- D61, docs/sharding.md): `tenants` is in the global keyspace and the run in a shard of dsched, so
-- a run's end marks its row (quota_release = 1) in the shard's transaction, and after the commit
-- whoever ended it (the outcome, a cancel), or else the reconciler's pass, clears the mark under
-- the run's lock and then gives the place back on the tenant's row: once, since only the
-- transaction that cleared the mark gives it back.
-- workflows_quota_release: the marked runs of a group of partitions (the reconciler's pass).
ALTER TABLE workflows
  ADD COLUMN quota_release TINYINT UNSIGNED NOT NULL DEFAULT 0,
  ADD KEY workflows_quota_release (quota_release, `partition`);
