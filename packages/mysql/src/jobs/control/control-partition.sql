-- The partition of a job the keyed lock (control-lock.sql) missed: one stored before the shard key
-- (migration 0061), whose id need not name its row's partition (D54), or no job at all. Unkeyed:
-- through vtgate it goes to every shard, so it runs outside the write's transaction and only after a
-- miss; the write then runs again keyed by the row's partition.
-- Parameters: id
-- Returns: rows of (partition)
SELECT `partition`
  FROM jobs
 WHERE id = ?
