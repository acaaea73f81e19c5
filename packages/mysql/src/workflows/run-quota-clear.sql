-- Clears the marks run-quota-lock.sql locked; its transaction then commits and the places are
-- given back on the tenants' rows (workflow-quota-release.sql) after it. Keyed by the partitions.
-- Parameters: partitions (list), ids (list)
-- Returns: affected rows
UPDATE workflows
   SET quota_release = 0
 WHERE `partition` IN (?) AND id IN (?) AND quota_release = 1
