-- What the executor needs to make the calls of the jobs just claimed.
-- Parameters: ids (list)
SELECT j.id, j.tenant_id, j.task_id, j.kind, j.scheduled_for, j.priority, j.lane, j.attempt,
       j.max_attempts, j.target, j.retry, t.signing_secret
  FROM jobs j JOIN tenants t ON t.id = j.tenant_id
 WHERE j.id IN (?) AND j.state = 'running'
