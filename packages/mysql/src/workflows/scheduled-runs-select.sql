-- Of runs about to end, those started by a workflow task's occurrence job (same id) that is still
-- running: by primary key. They count as their task, not against maxTasks, and their job ends with them.
-- Parameters: ids (list)
-- Returns: rows of (id)
SELECT id FROM jobs WHERE id IN (?) AND lane = 'workflow' AND state = 'running'
