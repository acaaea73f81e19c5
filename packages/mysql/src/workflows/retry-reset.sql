-- Resets the nodes of a retry: waiting with their recounted parents, or `ready` when none is left
-- unfinished (the retried node itself: dispatched next, dispatch-release.sql). Conditional on the
-- token, so only nodes this retry marked (and locked) move; a succeeded node is never marked.
-- One single-table UPDATE of the run's nodes, each count a CASE on the node's id (withCaseColumns;
-- the last CASE is the unfinished count again, for the state: no assignment reads another's
-- column), not a join to literal rows, which vtgate refuses on a sharded table (D56). Keyed by
-- the run's partition (docs/sharding.md).
-- Parameters: cases (node_id -> unfinished), cases (node_id -> failed), cases (node_id -> skipped),
--   cases (node_id -> unfinished), partition, workflow_id, node_ids (list), step_token
-- Returns: affected rows
UPDATE workflow_nodes
   SET unfinished_parents = CASE node_id :cases END, failed_parents = CASE node_id :cases END,
       skipped_parents = CASE node_id :cases END,
       state = IF(CASE node_id :cases END = 0, 'ready', 'waiting'), finished_at = NULL, walk_pending = NULL,
       walk_after = NULL
 WHERE `partition` = ? AND workflow_id = ? AND node_id IN (?) AND step_token = ? AND state <> 'succeeded'
