-- A new operation, running, its cursor before everything it will walk.
-- Parameters: id, tenant_id, action, filter (JSON), matched, cursor_at
-- Returns: affected rows
INSERT INTO operations (id, tenant_id, action, filter, state, matched, cursor_at, cursor_id, created_at, updated_at)
VALUES (?, ?, ?, ?, 'running', ?, ?, 0x00000000000000000000000000000000, NOW(3), NOW(3))
