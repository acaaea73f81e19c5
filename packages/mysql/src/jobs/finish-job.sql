-- Records a final outcome, fenced by the claim's attempt (invariant 3).
-- Parameters: state, last_status, last_error, id, attempt
UPDATE jobs
   SET state = ?, last_status = ?, last_error = ?, finished_at = NOW(3),
       claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3)
 WHERE id = ? AND attempt = ? AND state = 'running'
