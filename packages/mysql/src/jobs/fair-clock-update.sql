-- Stores the lane's virtual clock after a tagging pass; it never moves back.
-- Parameters: vt, max_tag, lane
-- Returns: affected rows
UPDATE fair_clocks
   SET vt = GREATEST(vt, ?), max_tag = GREATEST(max_tag, ?)
 WHERE lane = ?
