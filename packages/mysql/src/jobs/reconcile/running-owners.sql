-- The executors holding claims right now (for the Kubernetes accelerator).
-- Parameters: limit
-- Returns: rows of (claimed_by)
SELECT DISTINCT claimed_by
  FROM jobs
 WHERE state = 'running' AND claimed_by IS NOT NULL AND deadline_at IS NULL
 LIMIT ?
