-- Finished runs ready to move to history, oldest first in each final state: succeeded at once,
-- failed and cancelled ones after the DLQ retention (their dead nodes are the run's dead-letter
-- queue, re-run by a node retry, decision D29). One capped range of workflows_finished per state.
-- A run with a node still waiting, ready or pending (a cancelled run's call still running) is
-- left: one probe of workflow_nodes_by_state per run. Runs already marked archived (an archiver
-- that crashed while deleting) come again, to finish their delete.
-- Keyed by the archiver's group of partitions (one shard on Vitess, docs/sharding.md): `partition`
-- is the last column of workflows_finished; the node probe names the run's partition.
-- Parameters: partitions (list), limit, dead_retention_seconds, partitions (list), limit,
--   dead_retention_seconds, partitions (list), limit
-- Returns: rows of (id, partition, tenant_id, state, updated_at, archived_at, finished_at)
(SELECT id, `partition`, tenant_id, state, updated_at, archived_at, finished_at FROM workflows
  WHERE state = 'succeeded' AND finished_at IS NOT NULL AND `partition` IN (?) AND NOT EXISTS (
        SELECT 1 FROM workflow_nodes n
         WHERE n.`partition` = workflows.`partition` AND n.workflow_id = workflows.id AND n.state IN ('waiting', 'ready', 'pending'))
  ORDER BY finished_at LIMIT ?)
UNION ALL
(SELECT id, `partition`, tenant_id, state, updated_at, archived_at, finished_at FROM workflows
  WHERE state = 'failed' AND finished_at < NOW(3) - INTERVAL ? SECOND AND `partition` IN (?) AND NOT EXISTS (
        SELECT 1 FROM workflow_nodes n
         WHERE n.`partition` = workflows.`partition` AND n.workflow_id = workflows.id AND n.state IN ('waiting', 'ready', 'pending'))
  ORDER BY finished_at LIMIT ?)
UNION ALL
(SELECT id, `partition`, tenant_id, state, updated_at, archived_at, finished_at FROM workflows
  WHERE state = 'cancelled' AND finished_at < NOW(3) - INTERVAL ? SECOND AND `partition` IN (?) AND NOT EXISTS (
        SELECT 1 FROM workflow_nodes n
         WHERE n.`partition` = workflows.`partition` AND n.workflow_id = workflows.id AND n.state IN ('waiting', 'ready', 'pending'))
  ORDER BY finished_at LIMIT ?)
