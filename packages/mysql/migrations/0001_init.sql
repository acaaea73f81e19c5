-- dsched schema, version 1. Portable between MySQL 8 and MariaDB >= 10.6 (see docs/sql.md).
-- Ids are UUIDv7 in BINARY(16); times are DATETIME(3) in UTC (the session time zone is +00:00).

CREATE TABLE tenants (
  id BINARY(16) NOT NULL,
  name VARCHAR(200) NOT NULL,
  signing_secret VARCHAR(200) NOT NULL,
  max_tasks INT UNSIGNED NULL,
  max_concurrency INT UNSIGNED NULL,
  rate_limit_per_second INT UNSIGNED NULL,
  created_at DATETIME(3) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- API keys are stored as SHA-256 of the key (keys are 256-bit random, so a slow hash adds nothing).
-- A rotated-out key keeps working until expires_at.
CREATE TABLE tenant_api_keys (
  key_hash BINARY(32) NOT NULL,
  tenant_id BINARY(16) NOT NULL,
  key_prefix VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  created_at DATETIME(3) NOT NULL,
  expires_at DATETIME(3) NULL,
  PRIMARY KEY (key_hash),
  KEY tenant_api_keys_by_tenant (tenant_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- tasks_due is the scheduler's sorted set: a tick reads one partition's due range of it.
CREATE TABLE tasks (
  id BINARY(16) NOT NULL,
  tenant_id BINARY(16) NOT NULL,
  name VARCHAR(200) NOT NULL,
  schedule JSON NOT NULL,
  target JSON NOT NULL,
  priority TINYINT UNSIGNED NOT NULL,
  lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  retry JSON NOT NULL,
  misfire_policy VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  overlap_policy VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  metadata JSON NULL,
  state VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  next_fire_at DATETIME(3) NULL,
  `partition` SMALLINT UNSIGNED NOT NULL,
  version INT UNSIGNED NOT NULL DEFAULT 1,
  created_at DATETIME(3) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  PRIMARY KEY (id),
  KEY tasks_due (`partition`, state, next_fire_at),
  KEY tasks_by_tenant (tenant_id, id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The queue. jobs_occurrence makes materialisation idempotent (invariant 2); jobs_claim is walked
-- in (priority, run_at) order by claims; attempt is the fencing token (invariant 3).
-- target and retry are the task's at materialisation, so a job describes itself in history.
CREATE TABLE jobs (
  id BINARY(16) NOT NULL,
  tenant_id BINARY(16) NOT NULL,
  task_id BINARY(16) NULL,
  occurrence VARCHAR(80) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  kind VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  workflow_id BINARY(16) NULL,
  node_id VARCHAR(100) NULL,
  scheduled_for DATETIME(3) NOT NULL,
  priority TINYINT UNSIGNED NOT NULL,
  lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  state VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  attempt INT UNSIGNED NOT NULL DEFAULT 0,
  max_attempts INT UNSIGNED NOT NULL,
  run_at DATETIME(3) NOT NULL,
  claimed_by VARCHAR(128) NULL,
  lease_expires_at DATETIME(3) NULL,
  deadline_at DATETIME(3) NULL,
  cancel_requested TINYINT UNSIGNED NOT NULL DEFAULT 0,
  target JSON NOT NULL,
  retry JSON NOT NULL,
  last_status SMALLINT NULL,
  last_error VARCHAR(1000) NULL,
  started_at DATETIME(3) NULL,
  finished_at DATETIME(3) NULL,
  created_at DATETIME(3) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY jobs_occurrence (task_id, occurrence),
  KEY jobs_claim (lane, state, priority, run_at),
  KEY jobs_by_state_lease (state, lease_expires_at),
  KEY jobs_by_state_finished (state, finished_at),
  KEY jobs_by_tenant (tenant_id, state, scheduled_for)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- One row per attempt; moves to history with its job.
CREATE TABLE job_attempts (
  job_id BINARY(16) NOT NULL,
  attempt INT UNSIGNED NOT NULL,
  executor VARCHAR(128) NOT NULL,
  started_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NULL,
  status SMALLINT NULL,
  error_class VARCHAR(32) CHARACTER SET ascii COLLATE ascii_bin NULL,
  error VARCHAR(1000) NULL,
  duration_ms INT UNSIGNED NULL,
  PRIMARY KEY (job_id, attempt)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Named leases with a monotonic token: scheduler partitions and any singleton.
CREATE TABLE leases (
  name VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  holder VARCHAR(128) NULL,
  token BIGINT UNSIGNED NOT NULL DEFAULT 0,
  expires_at DATETIME(3) NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
