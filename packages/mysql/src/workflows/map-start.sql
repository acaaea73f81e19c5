-- A map node's expansion starts: it waits on its items from now on, like a fan-in. Its parents so
-- far have all finished (it was pending), so the counts start again for the items:
-- unfinished_parents = 1 is the expansion itself, a guard taken off with the last slice
-- (map-slice.sql), so the walk cannot decide the node while items are still to be made. The items
-- are decided by `all_done`: the walk makes the node pending when its last item ends, whatever
-- the items' outcomes, and the waker then ends it (dead when an item did not succeed). Conditional
-- on the node being pending and not started: a repeat changes nothing.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: map_count, partition, workflow_id, node_id
-- Returns: affected rows
UPDATE workflow_nodes
   SET state = 'waiting', trigger_rule = 'all_done', unfinished_parents = 1, failed_parents = 0,
       skipped_parents = 0, map_count = ?, map_made = 0
 WHERE `partition` = ? AND workflow_id = ? AND node_id = ? AND state = 'pending' AND map_count IS NULL
