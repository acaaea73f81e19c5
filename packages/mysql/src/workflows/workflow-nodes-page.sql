-- A page of a run's nodes in node id order, after a node id; the STATES marker narrows to stored
-- states (a range of workflow_nodes_by_state each) and the JOB marker tells running from pending.
-- The output comes from workflow_node_outputs by primary key.
-- Parameters: workflow_id, after_node_id, [states (list)], limit
-- Returns: rows of (node_id, state, attempt, job_id, trigger_rule, inputs, finished_at, lane, signal_hash,
--   map_over, map_count, map_made, job_state, job_attempt, job_scheduled_for, output)
SELECT n.node_id, n.state, n.attempt, n.job_id, n.trigger_rule, n.inputs, n.finished_at, n.lane, n.signal_hash,
       n.map_over, n.map_count, n.map_made,
       j.state AS job_state, j.attempt AS job_attempt, j.scheduled_for AS job_scheduled_for, o.output
  FROM workflow_nodes n
  LEFT JOIN jobs j ON n.state = 'pending' AND j.id = n.job_id
  LEFT JOIN workflow_node_outputs o ON o.workflow_id = n.workflow_id AND o.node_id = n.node_id
 WHERE n.workflow_id = ? AND n.node_id > ? %STATES% %JOB%
 ORDER BY n.node_id
 LIMIT ?
