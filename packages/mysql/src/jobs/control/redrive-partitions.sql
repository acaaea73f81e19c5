-- The partitions of the tenant's dead jobs among ids a keyed redrive (redrive-select.sql) missed:
-- jobs stored before the shard key (migration 0061), whose ids need not name their rows'
-- partitions (D54), or ids that are no dead job of the tenant at all. Unkeyed: through vtgate it
-- goes to every shard, so it runs outside any transaction and only after a miss; the redrive then
-- runs again keyed by the rows' partitions.
-- Parameters: ids (list), tenant_id
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM jobs
 WHERE id IN (?) AND tenant_id = ? AND state = 'dead' AND workflow_id IS NULL
