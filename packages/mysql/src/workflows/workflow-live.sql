-- Whether a tenant's run is live in MySQL (not missing, not another tenant's, not marked archived):
-- checked after a page of its nodes is read, since a run marked meanwhile has its rows deleted in
-- batches (a page read before the mark committed saw them all). Primary key.
-- Parameters: id, tenant_id
-- Returns: zero or one row of (id)
SELECT id FROM workflows WHERE id = ? AND tenant_id = ? AND archived_at IS NULL
