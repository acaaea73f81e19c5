-- Resets the nodes of a retry: waiting with their recounted parents, or `ready` when none is left
-- unfinished (the retried node itself: dispatched next, dispatch-release.sql). Conditional on the
-- token, so only nodes this retry marked (and locked) move; a succeeded node is never marked.
-- Parameters: rows (derived: node_id, unfinished, failed, skipped), workflow_id, step_token
-- Returns: affected rows
UPDATE workflow_nodes n
  JOIN (:rows) v ON n.node_id = v.node_id
   SET n.unfinished_parents = v.unfinished, n.failed_parents = v.failed, n.skipped_parents = v.skipped,
       n.state = IF(v.unfinished = 0, 'ready', 'waiting'), n.finished_at = NULL, n.walk_pending = NULL,
       n.walk_after = NULL
 WHERE n.workflow_id = ? AND n.step_token = ? AND n.state <> 'succeeded'
