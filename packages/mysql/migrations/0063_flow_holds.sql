-- Flow control holds (docs/flow-control.md, docs/sharding.md "Tenant-wide limits in the global
-- keyspace"): a flow control key's calls in flight, one row per claimed job of the key, written by
-- the claim's transaction on the global keyspace before the claim's shard transaction starts the
-- attempt, and deleted by the attempt's outcome once it committed. Counted instead of the running
-- job rows (jobs_flow_running), which on Vitess are spread over every shard: a count of them would
-- be a scatter, and a transaction over two keyspaces. A hold names the attempt that holds it
-- (job_id, attempt) and expires with the claim's lease (the lease keeper renews both): a claim that
-- failed after its holds committed, or an executor that died, leaves holds that count no more once
-- their lease ran out.
-- One hold per job (a job has one key): a job claimed again replaces its old hold.
-- flow_holds_key: a key's holds, live (expires_at in the future) or not, read under the key's lock.
CREATE TABLE flow_holds (
  job_id BINARY(16) NOT NULL,
  attempt INT UNSIGNED NOT NULL,
  tenant_id BINARY(16) NOT NULL,
  flow_key VARCHAR(100) NOT NULL,
  expires_at DATETIME(3) NOT NULL,
  PRIMARY KEY (job_id),
  KEY flow_holds_key (tenant_id, flow_key, expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
