-- Records skipped occurrences (occurrence-skips.ts); a record written twice is one row. Each row
-- takes its task's partition (the shard key, docs/sharding.md) from the task row, which the caller
-- holds locked.
-- STRAIGHT_JOIN: the rows first, then each owner by its primary key; on a small table the optimizer
-- would otherwise scan an index that holds (id, `partition`) and probe the rows.
-- Keyed by the tasks' partitions (`t.partition IN`), so through vtgate it reaches their shard.
-- Parameters: rows (derived: task_id, skipped_from, skipped_to, reason, created_at), partitions (list)
-- Returns: affected rows
INSERT IGNORE INTO occurrence_skips (task_id, skipped_from, skipped_to, reason, created_at, `partition`)
SELECT v.task_id, v.skipped_from, v.skipped_to, v.reason, v.created_at, t.`partition`
  FROM (:rows) v
  STRAIGHT_JOIN tasks t ON t.id = v.task_id
 WHERE t.`partition` IN (?)
