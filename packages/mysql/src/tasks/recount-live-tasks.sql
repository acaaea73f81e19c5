-- The recount (task-count-recount.ts): a page of tenants' live tasks in one group of partitions,
-- counted per tenant; the pass sums the groups. Keyed by the group's partitions (docs/sharding.md):
-- one shard through vtgate, each shard read on its own. A range of tasks_by_tenant over the page's
-- tenants (sweep-plans.test.ts).
-- Parameters: partitions (list), tenant_ids (list)
-- Returns: rows of (tenant_id, n)
SELECT tenant_id, COUNT(*) AS n
  FROM tasks
 WHERE `partition` IN (?) AND tenant_id IN (?) AND state <> 'deleted'
 GROUP BY tenant_id
