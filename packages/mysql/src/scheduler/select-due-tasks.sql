-- The due set of the partitions a scheduler holds, critical first. tasks_due is
-- (state, priority, partition, next_fire_at): this is one range per (priority, partition), read
-- in index order, so no filesort runs and only the rows returned are locked. The lock makes the
-- job insert and the advance of next_fire_at commit together (invariant 2); rows another
-- transaction holds (task-api editing the task, a second scheduler) are skipped, not waited for.
-- A task that forbids overlap is taken only once due: whether it runs depends on its previous
-- run at that moment, which a lookahead cannot know. Only what planning needs is read: the job
-- insert copies the rest from the locked rows on the server.
-- Parameters: partitions (list), due_before, now, limit
-- Returns: rows of (id, schedule, misfire_policy, overlap_policy, next_fire_at, jitter_s, tagged)
SELECT id, schedule, misfire_policy, overlap_policy, next_fire_at, jitter_s, tags IS NOT NULL AS tagged,
       `partition`
  FROM tasks
 WHERE state = 'active' AND priority IN (0, 1, 2, 3) AND `partition` IN (?) AND next_fire_at <= ?
   AND (overlap_policy = 'allow' OR next_fire_at <= ?)
 ORDER BY priority, `partition`, next_fire_at, id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
