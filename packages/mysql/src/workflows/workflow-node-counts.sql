-- A run's nodes counted by state: a covering walk of its workflow_nodes_by_state range, and a
-- primary-key probe of jobs only for the nodes whose job is live (to tell running from pending).
-- Parameters: workflow_id
-- Returns: rows of (state, running, n)
SELECT n.state, j.state = 'running' AS running, COUNT(*) AS n
  FROM workflow_nodes n
  LEFT JOIN jobs j ON n.state = 'pending' AND j.id = n.job_id
 WHERE n.workflow_id = ?
 GROUP BY n.state, running
