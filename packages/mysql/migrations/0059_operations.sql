-- Bulk operations (docs/bulk-operations.md): one tenant's request to cancel, pause, resume, redrive or
-- retry what a filter matches, carried out by the reconciler in batches. A row is the operation's
-- whole durable state: what it does (`action`, `filter`), how far it got (`cursor_at`, `cursor_id`:
-- the (scheduled_for, id) of the last job it handled, or the last task id, in the order it walks),
-- its counts, and who works on it (`lease_owner` until `lease_expires_at`). Each batch's changes
-- and the row's new cursor and counts commit in one transaction, so a reconciler killed mid-way
-- leaves the operation where its last batch ended, and the next owner starts after it.
--
-- operations_by_tenant (tenant_id, id): the tenant's list, newest first (ids are time-ordered).
-- operations_running (state, lease_expires_at): the reconciler's pick of a running operation whose
-- lease is free or expired; finished operations are outside that range.
CREATE TABLE operations (
  id BINARY(16) NOT NULL,
  tenant_id BINARY(16) NOT NULL,
  action VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  filter JSON NOT NULL,
  state VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  cancel_requested TINYINT UNSIGNED NOT NULL DEFAULT 0,
  matched INT UNSIGNED NOT NULL,
  done INT UNSIGNED NOT NULL DEFAULT 0,
  failed INT UNSIGNED NOT NULL DEFAULT 0,
  batches INT UNSIGNED NOT NULL DEFAULT 0,
  cursor_at DATETIME(3) NULL,
  cursor_id BINARY(16) NULL,
  lease_owner VARCHAR(160) NULL,
  lease_expires_at DATETIME(3) NULL,
  error VARCHAR(1000) NULL,
  created_at DATETIME(3) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  KEY operations_by_tenant (tenant_id, id),
  KEY operations_running (state, lease_expires_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
