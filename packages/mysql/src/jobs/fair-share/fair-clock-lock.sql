-- The lane's virtual clock on one shard, locked for this tagging pass: the row of the shard's
-- anchor, its group's lowest partition (docs/sharding.md "Fair share per shard"). SKIP LOCKED:
-- while another claimer tags the shard's lane, this one tags nothing and goes on claiming (the
-- other tags the due jobs), so taggers never wait on each other, and every write of the shard's
-- tenant clocks in the lane is serialised by this row.
-- Parameters: anchor, lane
-- Returns: rows of (vt, max_tag, heads_after): none when another claimer holds it, or the row is
-- not made yet (fair-clock-exists.sql tells them apart)
SELECT vt, max_tag, heads_after
  FROM fair_clocks
 WHERE `partition` = ? AND lane = ?
   FOR UPDATE SKIP LOCKED
