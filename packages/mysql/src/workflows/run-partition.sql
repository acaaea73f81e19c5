-- The partition of a run the keyed lock (run-lock-tenant.sql) missed: one stored before the shard
-- key (migration 0061), whose id need not name its row's partition (D54), or no run at all.
-- Unkeyed: through vtgate it goes to every shard, so it runs outside the operation's transaction
-- and only after a miss; the operation then runs again keyed by the row's partition (keyed.ts).
-- Parameters: id
-- Returns: rows of (partition)
SELECT `partition`
  FROM workflows
 WHERE id = ?
