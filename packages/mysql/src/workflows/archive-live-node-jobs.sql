-- How many nodes of one page of a run (node ids first..last) still have their job in MySQL: a run
-- moves to history only after its node jobs did (the jobs are archived first, by the same pass),
-- so job-api and the run's history never disagree. A range of the nodes' primary key, a
-- primary-key probe of jobs each.
-- Keyed by the run's partition (one shard on Vitess, docs/sharding.md; a run's rows share it).
-- Parameters: partition, workflow_id, first_node_id, last_node_id
-- Returns: one row of (n)
SELECT COUNT(*) AS n
  FROM workflow_nodes n
  JOIN jobs j ON j.`partition` = n.`partition` AND j.id = n.job_id
 WHERE n.`partition` = ? AND n.workflow_id = ? AND n.node_id >= ? AND n.node_id <= ?
