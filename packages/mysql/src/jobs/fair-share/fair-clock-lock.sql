-- The lane's virtual clock, locked for this tagging pass. SKIP LOCKED: while another claimer tags
-- the lane, this one tags nothing and goes on claiming (the other tags the due jobs), so taggers
-- never wait on each other, and every write of the lane's tenant clocks is serialised by this row.
-- Parameters: lane
-- Returns: rows of (vt, max_tag, heads_after): none when another claimer holds it
SELECT vt, max_tag, heads_after
  FROM fair_clocks
 WHERE lane = ?
   FOR UPDATE SKIP LOCKED
