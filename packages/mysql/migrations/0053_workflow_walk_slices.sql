-- A parent with many children is told in slices, each in its own transaction (docs/workflows.md
-- "Wide parents", decision D33), so no outcome transaction makes more than a bounded number of jobs:
-- a 1 → 100,000 fan-out was one 5-second transaction that made 100,000 jobs before the first of
-- them could be claimed.
--
-- child_count: the node's children, fixed at submission (the walk's budget reads it before telling
-- them). 0 for every node stored before this migration: those are told whole, as before.
-- walk_after: while a finished node is told in slices (walk_pending = 1), the last child told so
-- far; its children after this id (the edges' key order) are not told yet. NULL otherwise.
-- Both columns are added at the end of the row: instant on MySQL 8 and MariaDB 10.6.
ALTER TABLE workflow_nodes
  ADD COLUMN child_count INT UNSIGNED NOT NULL DEFAULT 0,
  ADD COLUMN walk_after VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NULL;
