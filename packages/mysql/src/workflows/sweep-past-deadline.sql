-- Running runs past their deadline: a range of workflows_by_state (state, deadline_at, id,
-- partition). Keyed by the sweep's group of partitions (one shard on Vitess, docs/sharding.md):
-- `partition` is the index's last column, so the range keeps its order.
-- Parameters: partitions (list), limit
-- Returns: rows of (id, partition)
SELECT id, `partition`
  FROM workflows
 WHERE state = 'running' AND deadline_at <= NOW(3) AND `partition` IN (?)
 ORDER BY deadline_at
 LIMIT ?
