-- Occurrences a task's schedule implied but that were not materialised on purpose: missed during
-- scheduler downtime under misfire policy `skip`/`fire_once` (or past the `fire_all` cap), due
-- while the previous run was still live under overlap `forbid`, or due while the task was paused.
-- One row per range [from_at, to_at), so an audit can tell `skipped` from `missing`.
CREATE TABLE task_skips (
  task_id BINARY(16) NOT NULL,
  from_at DATETIME(3) NOT NULL,
  to_at DATETIME(3) NOT NULL,
  reason VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (task_id, from_at, reason)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
