-- The executor's additions (docs/executor.md).
--
-- output and progress are what an asynchronous (202) target reported through job-api.
ALTER TABLE jobs
  ADD COLUMN output JSON NULL AFTER last_error,
  ADD COLUMN progress JSON NULL AFTER output;

-- A tenant's concurrency limit as rows: slot 0 .. max_concurrency - 1. A claim takes a free slot
-- for each job of a limited tenant (FOR UPDATE SKIP LOCKED), so executors meet on different rows
-- rather than on one counter per tenant. A slot is free when nobody holds it (expires_at NULL) or
-- its holder's lease ran out (expires_at in the past): a dead executor's slots come back on their own.
-- tenant_slots_free finds free slots without reading busy ones.
CREATE TABLE tenant_slots (
  tenant_id BINARY(16) NOT NULL,
  slot INT UNSIGNED NOT NULL,
  job_id BINARY(16) NULL,
  attempt INT UNSIGNED NULL,
  expires_at DATETIME(3) NULL,
  PRIMARY KEY (tenant_id, slot),
  KEY tenant_slots_free (tenant_id, expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Slots for tenants that already have a limit (0 .. 9999: the limit's upper bound).
INSERT INTO tenant_slots (tenant_id, slot)
SELECT t.id, n.n
  FROM tenants t
  JOIN (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d AS n
          FROM (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
                UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a
          CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
                UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) b
          CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
                UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) c
          CROSS JOIN (SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4
                UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) e
       ) n ON n.n < t.max_concurrency
 WHERE t.max_concurrency IS NOT NULL;
