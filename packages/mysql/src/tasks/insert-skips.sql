-- Records occurrence ranges skipped on purpose (misfire, overlap, paused) for the audit.
-- Parameters: rows (task_id, from_at, to_at, reason, created_at)
INSERT IGNORE INTO task_skips (task_id, from_at, to_at, reason, created_at)
VALUES ?
