-- A tenant's cancel of a running operation: marked, and honoured by its worker before its next
-- batch (operation-lock.sql reads the mark). A finished operation stays as it ended.
-- Parameters: id, tenant_id
-- Returns: affected rows
UPDATE operations
   SET cancel_requested = 1, updated_at = NOW(3)
 WHERE id = ? AND tenant_id = ? AND state = 'running'
