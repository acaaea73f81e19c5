-- Keeps the outputs (capped response bodies, as JSON text) of the node jobs an outcome batch
-- finished, in the batch's transaction: one statement for the batch (more only past the byte bound
-- of node-outputs.ts). Written for the writes whose fenced job update matched, so a stale claim's
-- body never lands. A node re-run (retry) writes again; a replayed older attempt never overwrites a
-- newer one (the assignments run left to right, attempt last).
-- Parameters: rows (workflow_id, node_id, attempt, output per row; the caller writes the row list)
-- Returns: affected rows
INSERT INTO workflow_node_outputs (workflow_id, node_id, attempt, output, created_at)
VALUES :rows
ON DUPLICATE KEY UPDATE
  output = IF(VALUES(attempt) >= attempt, VALUES(output), output),
  created_at = IF(VALUES(attempt) >= attempt, VALUES(created_at), created_at),
  attempt = GREATEST(attempt, VALUES(attempt))
