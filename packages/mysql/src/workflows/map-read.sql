-- A due map node's job (locked by node-wake-select.sql, so no other waker steps this node) and its
-- node, read without a lock: the node's row is the walk's hot row while its items end (each outcome
-- batch counts items off it), and a lock held through a slice would stall those batches. Nothing
-- the step decides from can change under it: while items are still to be made the walk cannot
-- decide the node (map-start.sql's guard), once it is pending again its counts are final, and the
-- step's own updates of the node are fenced (map-start.sql, map-slice.sql). db_now: the database
-- clock, for the items' ids.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: partition (node-wake-select.sql's row's), job_id
-- Returns: one row, or none when the job is no longer pending
SELECT j.id, j.attempt, j.workflow_id, j.node_id, j.`partition`, j.target, NOW(3) AS db_now,
       n.state AS node_state, n.map_over, n.map_max_items, n.map_count, n.map_made, n.failed_parents,
       n.skipped_parents, n.retry, n.priority, n.max_attempts, n.flow_key, n.flow_parallelism, n.flow_rate
  FROM jobs j
  JOIN workflow_nodes n ON n.workflow_id = j.workflow_id AND n.node_id = j.node_id AND n.`partition` = j.`partition`
 WHERE j.`partition` = ? AND j.id = ? AND j.state = 'pending'
