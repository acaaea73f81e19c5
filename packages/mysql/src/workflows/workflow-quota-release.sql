-- A run that ended stops counting against its tenant's maxTasks; n runs of one tenant at once. In
-- a transaction of its own on dsched_global, after the run's mark was cleared (run-quota.ts, D61).
-- Parameters: rows (derived: tenant_id, n)
-- Returns: affected rows
UPDATE tenants t
  JOIN (:rows) v ON t.id = v.tenant_id
   SET t.task_count = IF(t.task_count > v.n, t.task_count - v.n, 0)
