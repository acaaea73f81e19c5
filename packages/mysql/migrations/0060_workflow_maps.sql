-- Map nodes (docs/workflows.md "Map nodes", decision D49): a `map` node makes one call node per
-- item of a parent's output, a JSON array, when its turn comes. Its job is in lane 'map', which no
-- executor claims; the node waker expands it into its items in slices and, once they have all
-- ended, ends it with their outputs.
--
-- map_over: the parent whose output is mapped. map_max_items: the most items (a longer array fails
-- the node). map_count: how many items the array gave, set when the expansion starts (NULL before).
-- map_made: how many item nodes are made so far, the expansion's cursor (items 0 .. map_made - 1).
-- All NULL for other kinds. Added at the end of the row: instant on MySQL 8 and MariaDB 10.6.
ALTER TABLE workflow_nodes
  ADD COLUMN map_over VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NULL,
  ADD COLUMN map_max_items INT UNSIGNED NULL,
  ADD COLUMN map_count INT UNSIGNED NULL,
  ADD COLUMN map_made INT UNSIGNED NULL;
