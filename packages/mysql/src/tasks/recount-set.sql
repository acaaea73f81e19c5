-- The recount (task-count-recount.ts): a tenant's count lowered to what was counted, only while it
-- is still the count read before the counting (a reservation or a give-back since changed it: the
-- tenant is left to the next recount). dsched_global, the tenant's row by its primary key.
-- Parameters: counted, tenant_id, read_count
-- Returns: affected rows
UPDATE tenants
   SET task_count = ?
 WHERE id = ? AND task_count = ?
