-- Which of the nodes walk-finish-nodes.sql was given it finished (not all of them when a node was
-- cancelled or reset meanwhile), with how many children each has, for the walk's budget: by primary
-- key, under the locks the update took. Keyed by the runs' partitions (docs/sharding.md).
-- FORCE INDEX (PRIMARY): on a run just stored the optimizer weighed workflow_nodes_by_state for
-- the list of (run, node) pairs, or scanned the run; weighing it cost 5 ms a batch of 100 keys on a
-- 30,000-node run (0.7 ms forced: docs/performance.md "Workflows").
-- Parameters: partitions (list), rows ((workflow_id, node_id) list), step_token
-- Returns: rows of (workflow_id, node_id, partition, state, child_count, walk_after)
SELECT workflow_id, node_id, `partition`, state, child_count, walk_after
  FROM workflow_nodes FORCE INDEX (PRIMARY)
 WHERE `partition` IN (?) AND (workflow_id, node_id) IN (?) AND step_token = ?
