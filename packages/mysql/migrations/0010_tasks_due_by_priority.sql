-- The scheduler reads the due set critical first across all the partitions a replica holds. With
-- priority ahead of partition, the ranges (active, priority, partition, next_fire_at <= due) come
-- out of the index already in that order, so a capped batch never sorts, and so never locks, the
-- whole due set. The old (partition, state, next_fire_at) order would need a filesort for that.
ALTER TABLE tasks DROP INDEX tasks_due, ADD INDEX tasks_due (state, priority, `partition`, next_fire_at);
