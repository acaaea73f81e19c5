-- Nodes of the given runs still pending whose job finished with no walk applying it (every path
-- that ends a job walks through the finish path: this is the safety net for code from before it,
-- or a bug): their outcome is applied now, as the finish path would have. A range of workflow_nodes_by_state per run (the run's
-- live nodes), a primary-key probe of jobs each.
-- Keyed by the page's partitions, the node's job joined on its node's partition (a node job has
-- its run's: docs/sharding.md), so through vtgate the join is one shard's.
-- Parameters: partitions (list), ids (list), limit
-- Returns: rows of (workflow_id, node_id, partition, job_id, state, attempt)
SELECT n.workflow_id, n.node_id, n.`partition`, n.job_id, j.state, j.attempt
  FROM workflow_nodes n
  JOIN jobs j ON j.id = n.job_id AND j.`partition` = n.`partition`
 WHERE n.`partition` IN (?) AND n.workflow_id IN (?) AND n.state = 'pending'
   AND j.state IN ('succeeded', 'dead', 'cancelled')
 LIMIT ?
