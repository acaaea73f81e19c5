-- After node-jobs-insert-run.sql: the tag index rows of the run's pending nodes' jobs, one per tag
-- of the run (docs/tags.md). Starts from the run's tags, so an untagged run costs one index probe;
-- a job that has its rows already keeps them (INSERT IGNORE: a job's scheduled_for never changes).
-- Keyed by the run's partition, which its tags, nodes and node jobs share (docs/sharding.md): one
-- shard through vtgate.
-- Parameters: partition, workflow_id
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`)
SELECT STRAIGHT_JOIN wt.tenant_id, wt.tag, j.scheduled_for, j.id, j.`partition`
  FROM workflow_tags wt FORCE INDEX (workflow_tags_by_workflow)
  JOIN workflow_nodes n FORCE INDEX (workflow_nodes_by_state) ON n.workflow_id = wt.workflow_id
       AND n.`partition` = wt.`partition` AND n.state = 'pending'
  JOIN jobs j ON j.id = n.job_id AND j.`partition` = n.`partition`
 WHERE wt.`partition` = ? AND wt.workflow_id = ?
