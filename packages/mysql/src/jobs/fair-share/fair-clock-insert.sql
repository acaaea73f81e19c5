-- The shard's lane clock row, made by its first tagging pass (after migration 0062 only the
-- group anchored at 0 has rows; a new shard's anchor has none). IGNORE: two first passes make one
-- row; the one that made it holds it until its transaction ends.
-- Parameters: anchor, lane
-- Returns: affected rows (1: made)
INSERT IGNORE INTO fair_clocks (`partition`, lane) VALUES (?, ?)
