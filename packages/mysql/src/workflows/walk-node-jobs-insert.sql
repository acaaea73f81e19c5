-- The walk, after walk-decide.sql: the children it made pending get their jobs, in the same
-- transaction. Reached through the same edges (by parent key) and marked by the step's token, so
-- the work is proportional to the parents' out-degree, never a scan of the run. The job id is the
-- node's (fixed at submission): a repeat meets the primary key and changes nothing
-- (node-jobs-revive.sql is appended), so a node's job is made once per (workflow, node). Columns as node-jobs-insert-run.sql
-- (the run's tags included; walk-node-job-tags.sql indexes them).
-- The join order (STRAIGHT_JOIN) and the edges' index are fixed: from a fresh run's statistics
-- the optimizer starts from workflows and reads the run's edges by the run alone.
-- after_id and upto_id bound the children as in walk-count.sql (a wide parent's slice). The edges
-- are read in a derived table of their own, as in walk-decide.sql, where a slice's constant bounds
-- make a range of the primary key; joined straight to the children, the optimizer took the (run,
-- parent) prefix and filtered every child of the parent, per slice.
-- A node job copies its run's trace context: the run is one trace, its nodes' attempts spans of it.
-- The run's row by its primary key, named: with the run's wide trace_context in the select list,
-- MariaDB 10.11 costed a scan of workflows with a join buffer cheaper than the key on a small table.
-- A sleep or wait node's job is scheduled for (and due at) its wake time: a delay from now, or an
-- instant no earlier than now (node-wake.ts ends it then); a call node's, now.
-- The parents are their own rows, read by key with their partition, and every table is joined on
-- `partition`, as in walk-count.sql (one shard through vtgate, no literal rows: D56).
-- Inside the derived table the parents' rows come first too (STRAIGHT_JOIN): with the statistics
-- of a table that just grew (a map's items arrive faster than InnoDB recalculates them), the
-- optimizer read every edge first and looked the batch up in them, per batch (docs/performance.md).
-- Parameters: after_id, upto_id, upto_id, partitions (list), parents ((workflow_id, node_id) list),
--   partitions (list), step_token
-- Returns: affected rows
INSERT INTO jobs (id, tenant_id, task_id, occurrence, kind, workflow_id, node_id, scheduled_for, priority,
                         lane, state, attempt, max_attempts, run_at, target, retry, created_at, updated_at,
                         flow_key, flow_parallelism, flow_rate, trace_context, tags, `partition`)
SELECT STRAIGHT_JOIN c.job_id, w.tenant_id, NULL, CONCAT('workflow:', LOWER(HEX(c.job_id))), 'workflow', c.workflow_id,
       c.node_id, GREATEST(NOW(3), COALESCE(c.wake_at, NOW(3) + INTERVAL COALESCE(c.wake_delay_ms, 0) * 1000 MICROSECOND)),
       c.priority, c.lane, 'pending', c.attempt, c.attempt + c.max_attempts,
       GREATEST(NOW(3), COALESCE(c.wake_at, NOW(3) + INTERVAL COALESCE(c.wake_delay_ms, 0) * 1000 MICROSECOND)),
       c.target, c.retry, NOW(3), NOW(3), c.flow_key, c.flow_parallelism, c.flow_rate,
       w.trace_context, w.tags, c.`partition`
  FROM (SELECT DISTINCT e.`partition`, e.workflow_id, e.child_id
          FROM workflow_nodes p FORCE INDEX (PRIMARY)
          STRAIGHT_JOIN workflow_edges e FORCE INDEX (PRIMARY)
                ON e.workflow_id = p.workflow_id AND e.parent_id = p.node_id AND e.`partition` = p.`partition`
                AND e.child_id > ? AND (? IS NULL OR e.child_id <= ?)
         WHERE p.`partition` IN (?) AND (p.workflow_id, p.node_id) IN (?)) d
  JOIN workflow_nodes c ON c.workflow_id = d.workflow_id AND c.node_id = d.child_id AND c.`partition` = d.`partition`
  JOIN workflows w FORCE INDEX (PRIMARY) ON w.id = c.workflow_id AND w.`partition` = c.`partition`
 WHERE c.`partition` IN (?) AND c.step_token = ? AND c.state = 'pending'
