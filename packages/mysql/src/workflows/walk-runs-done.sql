-- Runs among the given ones that are running with nothing left to run (no node waiting, ready or
-- pending: one probe of workflow_nodes_by_state each), locked to be finished. Run first without
-- FOR UPDATE over the batch's runs, then locked over those it found (workflow-runs.ts). Two
-- transactions that finish a run's last two nodes at once may each still see the other's node as
-- pending and both leave the run running: the reconciler's sweep (sweep-running.sql) finishes those.
-- Keyed by the runs' partitions, the nodes' probes by their run's (docs/sharding.md): one shard
-- through vtgate, the subqueries merged into its route.
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, partition, tenant_id, failed)
SELECT w.id, w.`partition`, w.tenant_id,
       EXISTS (SELECT 1 FROM workflow_nodes n
                WHERE n.workflow_id = w.id AND n.`partition` = w.`partition`
                  AND n.state IN ('dead', 'upstream_failed', 'cancelled')) AS failed
  FROM workflows w
 WHERE w.`partition` IN (?) AND w.id IN (?) AND w.state = 'running'
   AND NOT EXISTS (SELECT 1 FROM workflow_nodes n
                    WHERE n.workflow_id = w.id AND n.`partition` = w.`partition`
                      AND n.state IN ('waiting', 'ready', 'pending'))
   FOR UPDATE
