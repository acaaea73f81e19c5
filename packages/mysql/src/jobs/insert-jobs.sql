-- Materialises job rows. A row whose (task_id, occurrence) exists is skipped, so two schedulers
-- computing the same occurrence make one row; affectedRows counts only rows really inserted.
-- Parameters: rows (VALUES list of the columns below)
INSERT IGNORE INTO jobs (id, tenant_id, task_id, occurrence, kind, scheduled_for, priority, lane, state,
                         attempt, max_attempts, run_at, target, retry, created_at, updated_at)
VALUES ?
