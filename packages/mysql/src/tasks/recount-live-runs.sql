-- The recount (task-count-recount.ts): a page of tenants' runs that hold a place in their quota, in
-- one group of partitions, counted per tenant: running and not started by a workflow task's
-- occurrence (whose job, same id and partition, is running: the run counts as its task), or ended
-- with the place still owed (quota_release, D61). Keyed by the group's partitions (docs/sharding.md):
-- one shard through vtgate. workflows_by_tenant, or (MariaDB, where few runs are running) the
-- running and the marked runs merged from workflows_by_state and workflows_quota_release; the job
-- by its primary key (sweep-plans.test.ts).
-- Parameters: partitions (list), tenant_ids (list)
-- Returns: rows of (tenant_id, n)
SELECT w.tenant_id, COUNT(*) AS n
  FROM workflows w
  LEFT JOIN jobs j
    ON j.id = w.id AND j.`partition` = w.`partition` AND j.lane = 'workflow' AND j.state = 'running'
 WHERE w.`partition` IN (?) AND w.tenant_id IN (?)
   AND ((w.state = 'running' AND j.id IS NULL) OR w.quota_release = 1)
 GROUP BY w.tenant_id
