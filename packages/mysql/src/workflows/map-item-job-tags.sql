-- After map-item-jobs-insert.sql: the tag index rows of the slice's jobs, one per tag of the run
-- (docs/tags.md), as node-job-tags-run.sql does for a run's roots. An untagged run costs one probe.
-- Keyed by the run's partition, which its nodes, outputs, tags and node jobs share (the map job's
-- row's: docs/sharding.md, RunKey): one shard through vtgate.
-- Parameters: first_node_id, last_node_id, partition, workflow_id
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`)
SELECT STRAIGHT_JOIN wt.tenant_id, wt.tag, j.scheduled_for, j.id, j.`partition`
  FROM workflow_tags wt FORCE INDEX (workflow_tags_by_workflow)
  JOIN workflow_nodes n FORCE INDEX (PRIMARY) ON n.workflow_id = wt.workflow_id AND n.`partition` = wt.`partition`
       AND n.node_id BETWEEN ? AND ?
  JOIN jobs j ON j.id = n.job_id AND j.`partition` = n.`partition`
 WHERE wt.`partition` = ? AND wt.workflow_id = ?
