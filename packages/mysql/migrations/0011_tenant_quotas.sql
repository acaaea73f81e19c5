-- Tenant quotas enforced across API replicas (docs/quotas.md).
-- task_count: live (not deleted) tasks, kept by the same transaction that creates or deletes one,
-- so `maxTasks` is a conditional increment instead of a COUNT(*) over the tenant's tasks.
ALTER TABLE tenants ADD COLUMN task_count INT UNSIGNED NOT NULL DEFAULT 0;
UPDATE tenants t SET task_count = (SELECT COUNT(*) FROM tasks k WHERE k.tenant_id = t.id AND k.state <> 'deleted');

-- rateLimitPerSecond: one token bucket per tenant, refilled from the database clock and taken
-- by one conditional UPDATE per request.
CREATE TABLE tenant_rate_buckets (
  tenant_id BINARY(16) NOT NULL,
  tokens DOUBLE NOT NULL,
  refilled_at DATETIME(3) NOT NULL,
  PRIMARY KEY (tenant_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
