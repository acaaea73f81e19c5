-- Finished jobs ready to move to history, oldest first: succeeded and cancelled at once, dead ones
-- after their retention in the DLQ. One range of jobs_finished per state, each read in index order
-- and capped, so the statement touches at most 3 x limit index entries.
-- A workflow node's job stays while its node is still pending: no walk applied its outcome (every
-- path that ends a job walks through the finish path, so this is the safety net's case), and the
-- reconciler's workflow sweep applies it from this row within a pass (docs/workflows.md); archived
-- first, it would be lost and the run would wait forever. A primary-key probe of workflow_nodes for node jobs only.
-- Keyed by the archiver's group of partitions (one shard on Vitess, docs/sharding.md): `partition`
-- is the last column of jobs_finished, so each range keeps its order and filters in the index, and
-- the node probe names the job's partition (a run's nodes share it), so vtgate merges it.
-- Parameters: partitions (list), limit, partitions (list), limit, dead_retention_seconds, partitions (list), limit
-- Returns: rows of (id, finished_at) (one result set of every part)
(SELECT id, finished_at FROM jobs WHERE finished_state = 'succeeded' AND `partition` IN (?) AND (workflow_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM workflow_nodes n
          WHERE n.`partition` = jobs.`partition` AND n.workflow_id = jobs.workflow_id AND n.node_id = CONVERT(jobs.node_id USING ascii)
            AND n.state = 'pending'))
 ORDER BY finished_at LIMIT ?)
UNION ALL
(SELECT id, finished_at FROM jobs WHERE finished_state = 'cancelled' AND `partition` IN (?) AND (workflow_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM workflow_nodes n
          WHERE n.`partition` = jobs.`partition` AND n.workflow_id = jobs.workflow_id AND n.node_id = CONVERT(jobs.node_id USING ascii)
            AND n.state = 'pending'))
 ORDER BY finished_at LIMIT ?)
UNION ALL
(SELECT id, finished_at FROM jobs
  WHERE finished_state = 'dead' AND finished_at < NOW(3) - INTERVAL ? SECOND AND `partition` IN (?) AND (workflow_id IS NULL OR NOT EXISTS (
         SELECT 1 FROM workflow_nodes n
          WHERE n.`partition` = jobs.`partition` AND n.workflow_id = jobs.workflow_id AND n.node_id = CONVERT(jobs.node_id USING ascii)
            AND n.state = 'pending'))
 ORDER BY finished_at LIMIT ?)
