-- After walk-node-jobs-insert.sql: the tag index rows of the jobs that step made, one per tag of
-- their run (docs/tags.md). Starts from the step's runs and their tags, so a step of untagged runs
-- costs an index probe per parent; the children are then reached as the insert reached them.
-- Parameters: rows (derived: workflow_id, node_id, after_id, upto_id), step_token
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`)
SELECT STRAIGHT_JOIN wt.tenant_id, wt.tag, j.scheduled_for, j.id, j.`partition`
  FROM (SELECT DISTINCT v.workflow_id, v.node_id, v.after_id, v.upto_id FROM (:rows) v) p
  JOIN workflow_tags wt FORCE INDEX (workflow_tags_by_workflow) ON wt.workflow_id = p.workflow_id
  JOIN workflow_edges e FORCE INDEX (PRIMARY) ON e.workflow_id = p.workflow_id AND e.parent_id = p.node_id
        AND e.child_id > p.after_id AND (p.upto_id IS NULL OR e.child_id <= p.upto_id)
  JOIN workflow_nodes c ON c.workflow_id = e.workflow_id AND c.node_id = e.child_id
  JOIN jobs j ON j.id = c.job_id
 WHERE c.step_token = ? AND c.state = 'pending'
