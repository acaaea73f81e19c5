-- The walk, step 1: the nodes whose jobs this outcome batch finished take their job's final state,
-- in the same transaction as the job rows (fenced there by attempt). Conditional on the node still
-- being pending with that job, so a node is finished once: only a finish that matched here tells
-- the node's children (walk-count.sql), and so a parent is never counted twice. step_token marks
-- the rows finished here (walk-finished-check.sql).
-- Parameters: rows (derived: workflow_id, node_id, job_id, state, attempt), step_token
-- Returns: affected rows
UPDATE workflow_nodes n
  JOIN (:rows) v ON n.workflow_id = v.workflow_id AND n.node_id = v.node_id
   SET n.state = v.state, n.attempt = v.attempt, n.finished_at = NOW(3), n.step_token = ?
 WHERE n.state = 'pending' AND n.job_id = v.job_id
