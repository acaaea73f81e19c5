-- Of runs about to end, those started by a workflow task's occurrence job (same id) that is still
-- running: by primary key. They count as their task, not against maxTasks, and their job ends with them.
-- Keyed by the runs' partitions, which their occurrence jobs share (D54; docs/sharding.md).
-- Parameters: partitions (list), ids (list)
-- Returns: rows of (id)
SELECT id FROM jobs WHERE `partition` IN (?) AND id IN (?) AND lane = 'workflow' AND state = 'running'
