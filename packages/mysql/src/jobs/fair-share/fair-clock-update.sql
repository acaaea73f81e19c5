-- Stores the shard's lane clock after a tagging pass; it never moves back. And where the next
-- pass's walk of the tenants' heads starts (fair-heads-select.sql): NULL from the first.
-- Parameters: vt, max_tag, heads_after, anchor, lane
-- Returns: affected rows
UPDATE fair_clocks
   SET vt = GREATEST(vt, ?), max_tag = GREATEST(max_tag, ?), heads_after = ?
 WHERE `partition` = ? AND lane = ?
