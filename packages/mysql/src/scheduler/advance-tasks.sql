-- Moves next_fire_at of a whole batch in one single-table statement, each task to its own value by
-- `CASE id WHEN ? THEN ? …` (withCases, sql.ts; NULL when the schedule is exhausted). vtgate
-- refuses JSON_TABLE and cannot plan an UPDATE joined to a derived table of rows onto a shard
-- (docs/sharding.md); a single-table UPDATE by id it can. The rows are locked by the due-set read;
-- next_fire_at only moves forward (GREATEST keeps a later value; a NULL, exhausted, stays NULL), so
-- an occurrence whose job was archived is never materialised again. One CASE, evaluated once per
-- row: its cost grows with the batch times the batch, so it is not repeated in the WHERE.
-- Keyed by the batch's group (`partition IN`), so through vtgate it reaches the group's one shard.
-- Parameters: :cases (task_id, next_fire_at pairs), updated_at, task_ids, partitions (list)
-- Returns: affected rows
UPDATE tasks
   SET next_fire_at = GREATEST(next_fire_at, CASE id :cases END), updated_at = ?
 WHERE id IN (?) AND `partition` IN (?) AND state = 'active'
