-- After walk-node-jobs-insert.sql: the tag index rows of the jobs that step made, one per tag of
-- their run (docs/tags.md). Starts from the step's parents (their own rows, by key with their
-- partition) and their runs' tags, so a step of untagged runs costs an index probe per parent; the
-- children are then reached as the insert reached them. Every table joined on `partition` too
-- (one shard through vtgate, no literal rows: D56).
-- Parameters: after_id, upto_id, upto_id, partitions (list), parents ((workflow_id, node_id) list),
--   step_token
-- Returns: affected rows
INSERT IGNORE INTO job_tags (tenant_id, tag, scheduled_for, job_id, `partition`)
SELECT STRAIGHT_JOIN wt.tenant_id, wt.tag, j.scheduled_for, j.id, j.`partition`
  FROM workflow_nodes p FORCE INDEX (PRIMARY)
  JOIN workflow_tags wt FORCE INDEX (workflow_tags_by_workflow)
       ON wt.workflow_id = p.workflow_id AND wt.`partition` = p.`partition`
  JOIN workflow_edges e FORCE INDEX (PRIMARY)
       ON e.workflow_id = p.workflow_id AND e.parent_id = p.node_id AND e.`partition` = p.`partition`
       AND e.child_id > ? AND (? IS NULL OR e.child_id <= ?)
  JOIN workflow_nodes c ON c.workflow_id = e.workflow_id AND c.node_id = e.child_id AND c.`partition` = e.`partition`
  JOIN jobs j ON j.id = c.job_id AND j.`partition` = c.`partition`
 WHERE p.`partition` IN (?) AND (p.workflow_id, p.node_id) IN (?) AND c.step_token = ? AND c.state = 'pending'
