-- Moves next_fire_at of a whole batch in one single-table statement, each task to its own value
-- found by a binary search on its id (`IF(id < ?, …, …)` nested, withSearch in sql.ts: log2(n)
-- comparisons a row, where a `CASE id WHEN ? THEN ? …` took n/2; NULL when the schedule is
-- exhausted). vtgate refuses JSON_TABLE and cannot plan an UPDATE joined to a derived table of rows
-- onto a shard (docs/sharding.md); a single-table UPDATE by id it can. The rows are locked by the
-- due-set read; next_fire_at only moves forward (GREATEST keeps a later value; a NULL, exhausted,
-- stays NULL), so an occurrence whose job was archived is never materialised again.
-- Keyed by the batch's group (`partition IN`), so through vtgate it reaches the group's one shard.
-- Parameters: :search (task_id, next_fire_at pairs), updated_at, task_ids, partitions (list)
-- Returns: affected rows
UPDATE tasks
   SET next_fire_at = GREATEST(next_fire_at, :search), updated_at = ?
 WHERE id IN (?) AND `partition` IN (?) AND state = 'active'
