-- Flow control per key (docs/flow-control.md): a task may name {key, parallelism?, ratePerSecond?};
-- its jobs copy them when made, like the target. The claim enforces them across the fleet:
-- jobs_flow_running counts a key's calls in flight (flow_running is the key while the job runs),
-- and flow_keys holds one row per (tenant, key), locked by the claim that takes a job of the key
-- (SKIP LOCKED) and carrying the key's rate state: tat, the earliest time its next call may start.
ALTER TABLE tasks
  ADD COLUMN flow_control JSON NULL;

ALTER TABLE jobs
  ADD COLUMN flow_key VARCHAR(100) NULL,
  ADD COLUMN flow_parallelism INT UNSIGNED NULL,
  ADD COLUMN flow_rate DECIMAL(12,3) NULL,
  ADD COLUMN flow_running VARCHAR(100) GENERATED ALWAYS AS
    (CASE WHEN state = 'running' THEN flow_key END) STORED,
  ADD INDEX jobs_flow_running (tenant_id, flow_running);

CREATE TABLE flow_keys (
  tenant_id BINARY(16) NOT NULL,
  flow_key VARCHAR(100) NOT NULL,
  tat DATETIME(3) NULL,
  PRIMARY KEY (tenant_id, flow_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
