-- The due set of the given partitions, locked so that the job insert and the advance of
-- next_fire_at commit together (invariant 2). Walks tasks_due as a range per partition.
-- Parameters: partitions (list), due_before (DATETIME(3)), limit
SELECT id, tenant_id, schedule, target, retry, priority, lane, misfire_policy, overlap_policy, next_fire_at
  FROM tasks
 WHERE `partition` IN (?) AND state = 'active' AND next_fire_at <= ?
 LIMIT ?
   FOR UPDATE SKIP LOCKED
