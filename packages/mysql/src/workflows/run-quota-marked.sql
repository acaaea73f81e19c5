-- The reconciler's pass (decision D61): runs of a group whose end still owes their tenant's quota
-- a place (a process died between the run's commit and the give-back), oldest first.
-- workflows_quota_release: quota_release = 1 and the group's partitions.
-- Parameters: partitions (list), limit
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM workflows
 WHERE quota_release = 1 AND `partition` IN (?)
 LIMIT ?
