-- Of the node jobs a claim took, the nodes that asked for their parents' outputs (inputs =
-- 'parents'), by primary key. Run by the executor only for claims that took node jobs.
-- FORCE INDEX (PRIMARY): the optimizer weighed workflow_nodes_by_state for the list of (run, node)
-- pairs, or scanned a run just stored; weighing it cost 5 ms for 100 keys on a 30,000-node run,
-- 0.7 ms forced (walk-finished-check.sql, docs/performance.md "Workflows").
-- Parameters: rows ((workflow_id, node_id) list)
-- Returns: rows of (workflow_id, node_id, parent_count)
SELECT workflow_id, node_id, parent_count
  FROM workflow_nodes FORCE INDEX (PRIMARY)
 WHERE (workflow_id, node_id) IN (?) AND inputs = 'parents'
