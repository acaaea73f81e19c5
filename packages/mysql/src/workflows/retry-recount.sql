-- The parent counts a reset node starts again from: parents in the reset set (marked by the token)
-- or still live are unfinished, and so are finished parents that have not told this child yet (on
-- the walk queue, before their cursor reaches it: their walk will count it off); the others count
-- by how they finished. Through workflow_edges_by_child. Every operand is NOT NULL (<=>), so
-- `unfinished` is 0 or 1. Keyed by the run's partition (docs/sharding.md), both tables.
-- Parameters: step_token, partition, workflow_id, node_ids (list)
-- Returns: rows of (child_id, unfinished, failed, skipped)
SELECT t.child_id, SUM(t.unfinished) AS unfinished,
       SUM(NOT t.unfinished AND t.state IN ('dead', 'upstream_failed', 'cancelled')) AS failed,
       SUM(NOT t.unfinished AND t.state = 'skipped') AS skipped
  FROM (SELECT e.child_id, p.state,
               p.step_token <=> ? OR p.state IN ('waiting', 'ready', 'pending')
               OR (p.walk_pending <=> 1 AND (p.walk_after IS NULL OR e.child_id > p.walk_after)) AS unfinished
          FROM workflow_edges e
          JOIN workflow_nodes p ON p.workflow_id = e.workflow_id AND p.node_id = e.parent_id AND p.`partition` = e.`partition`
         WHERE e.`partition` = ? AND e.workflow_id = ? AND e.child_id IN (?)) t
 GROUP BY t.child_id
