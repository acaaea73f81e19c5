-- After a slice of a map node's items is stored: the cursor moves past them and the node waits on
-- them too (the walk counts each off as it ends, walk-count.sql). With the last slice the
-- expansion's guard is taken off (last = 1): the slice's own items are still to run, so the count
-- stays above zero and the walk decides the node when the last item ends. Fenced by the cursor: two wakers never store the same
-- slice (the second's update matches nothing and its transaction is rolled back).
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: items, items, items, last (0 or 1), partition, workflow_id, node_id, made (the cursor read)
-- Returns: affected rows
UPDATE workflow_nodes
   SET map_made = map_made + ?, parent_count = parent_count + ?, unfinished_parents = unfinished_parents + ? - ?
 WHERE `partition` = ? AND workflow_id = ? AND node_id = ? AND state = 'waiting' AND map_made = ?
