-- Runs among the given ones that may dispatch held (`ready`) nodes: running, not paused, and (for
-- the outcome path) with a maxParallel; locked, so two transactions never both fill the same free
-- places. With the number of nodes that hold a place now (pending: a live job). Run first without
-- FOR UPDATE, then locked over the runs it found (workflow-runs.ts).
-- Keyed by the runs' partitions, the count by its run's (docs/sharding.md): one shard through
-- vtgate, the subquery merged into its route.
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id, partition, max_parallel, live)
SELECT w.id, w.`partition`, w.max_parallel,
       (SELECT COUNT(*) FROM workflow_nodes n
         WHERE n.workflow_id = w.id AND n.`partition` = w.`partition` AND n.state = 'pending') AS live
  FROM workflows w
 WHERE w.`partition` IN (?) AND w.id IN (?) AND w.state = 'running' AND w.paused = 0 %CAPPED%
 ORDER BY w.id
   FOR UPDATE
