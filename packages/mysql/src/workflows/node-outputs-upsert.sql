-- Keeps the outputs (capped response bodies, as JSON text) of the node jobs an outcome batch
-- finished, in the batch's transaction: one statement for the batch (more only past the byte bound
-- of node-outputs.ts). Written for the writes whose fenced job update matched, so a stale claim's
-- body never lands. A node re-run (retry) writes again; a replayed older attempt never overwrites a
-- newer one (the assignments run left to right, attempt last).
-- Parameters: rows (derived: workflow_id, node_id, attempt, output, job_id), partitions (list)
-- Each row takes its node job's partition (the shard key, docs/sharding.md) from the job row, which
-- the ending transaction holds locked, read keyed by the ends' partitions (through vtgate, one shard).
-- STRAIGHT_JOIN: the rows first, then each owner by its primary key; on a small table the optimizer
-- would otherwise scan an index that holds (id, `partition`) and probe the rows.
-- Returns: affected rows
INSERT INTO workflow_node_outputs (workflow_id, node_id, attempt, output, created_at, `partition`)
SELECT v.workflow_id, v.node_id, v.attempt, v.output, NOW(3), j.`partition`
  FROM (:rows) v
  STRAIGHT_JOIN jobs j ON j.id = v.job_id AND j.`partition` IN (?)
ON DUPLICATE KEY UPDATE
  output = IF(VALUES(attempt) >= workflow_node_outputs.attempt, VALUES(output), workflow_node_outputs.output),
  created_at = IF(VALUES(attempt) >= workflow_node_outputs.attempt, VALUES(created_at), workflow_node_outputs.created_at),
  attempt = GREATEST(workflow_node_outputs.attempt, VALUES(attempt))
