-- Whether the shard's lane clock row exists, when fair-clock-lock.sql found none: it is held by
-- another tagger (a row), or the shard's first pass is to make it (none: fair-clock-insert.sql).
-- A plain read: it never waits for the holder.
-- Parameters: anchor, lane
-- Returns: one row, or none
SELECT 1 AS found
  FROM fair_clocks
 WHERE `partition` = ? AND lane = ?
