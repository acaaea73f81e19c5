-- The tenant's dead jobs among the given ids, locked for a redrive, in primary-key order. A
-- workflow node's job is re-run through its workflow (POST /v1/workflows/{id}/nodes/{nodeId}/retry),
-- which resets the node with it: redriven alone, its success would reach no child.
-- Keyed by one group of partitions (one shard on Vitess, docs/sharding.md): the group of the
-- partitions the ids name, or, for a job stored before the key, of its row's (redrive-partitions.sql).
-- Parameters: partitions (list), ids (list), tenant_id
-- Returns: rows of (id, task_id, partition)
SELECT id, task_id, `partition` FROM jobs
 WHERE `partition` IN (?) AND id IN (?) AND tenant_id = ? AND state = 'dead' AND workflow_id IS NULL
 ORDER BY id FOR UPDATE
