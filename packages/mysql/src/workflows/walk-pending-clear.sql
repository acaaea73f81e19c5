-- Takes a frontier read by walk-pending-select.sql off the walk queue (its rows are locked by it);
-- the same transaction tells their children.
-- Parameters: rows ((workflow_id, node_id) list)
-- Returns: affected rows
UPDATE workflow_nodes
   SET walk_pending = NULL
 WHERE (workflow_id, node_id) IN (?) AND walk_pending = 1
