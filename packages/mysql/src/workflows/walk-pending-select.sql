-- The walk's next frontier: finished nodes whose children were not told yet (decided without a job
-- by walk-decide.sql, or left by a walk that reached its bound). Locked, skipping rows another
-- walker holds, so two walkers never tell the same children twice; a range of
-- workflow_nodes_unwalked, which holds entries only while a node waits here (a wide parent told in
-- slices: until its last slice). Keyed by the partitions the walker serves (the batch's runs',
-- or the sweep's page's: docs/sharding.md), read from the index beside the node's key.
-- Parameters: partitions (list), limit
-- Returns: rows of (workflow_id, node_id, partition, state, child_count, walk_after)
SELECT workflow_id, node_id, `partition`, state, child_count, walk_after
  FROM workflow_nodes
 WHERE walk_pending = 1 AND `partition` IN (?)
 ORDER BY workflow_id, node_id
 LIMIT ?
   FOR UPDATE SKIP LOCKED
