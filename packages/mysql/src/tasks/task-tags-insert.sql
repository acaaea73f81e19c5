-- A task's tag index rows, one per tag (`key:value`), in the transaction that writes its tags.
-- Parameters: rows (tenant_id, tag, task_id)
-- Returns: affected rows
INSERT INTO task_tags (tenant_id, tag, task_id) VALUES ?
