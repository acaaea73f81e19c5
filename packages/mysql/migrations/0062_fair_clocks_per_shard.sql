-- Fair share per shard (docs/sharding.md "Fair share per shard", issue 32): the lane's virtual
-- clock and each tenant's finish tag are kept per shard, keyed by the shard's anchor, its lowest
-- partition, so the tagger's transaction (its clock row's lock, the tenants' clocks, the jobs'
-- tags) stays on the shard whose jobs it tags. On one primary there is one group of partitions,
-- anchored at 0: the rows stored before this migration take partition 0 (an added NOT NULL
-- column's implicit default), so they are that group's and nothing starts over. A shard's clock
-- row is made by its first tagging pass (fair-clock-insert.sql); a resharding's new shards get new
-- anchors, so their clocks start at the head of their queue, as an idle lane's does.
-- No DEFAULT: a write that forgets the anchor fails instead of writing 0.
ALTER TABLE fair_clocks
  ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL FIRST,
  DROP PRIMARY KEY,
  ADD PRIMARY KEY (`partition`, lane);

ALTER TABLE tenant_fair_clocks
  ADD COLUMN `partition` SMALLINT UNSIGNED NOT NULL FIRST,
  DROP PRIMARY KEY,
  ADD PRIMARY KEY (`partition`, lane, tenant_id);
