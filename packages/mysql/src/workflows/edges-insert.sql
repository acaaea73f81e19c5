-- Stores a batch of a run's dependencies in one statement; the document is a JSON array of
-- [parent_id, child_id].
-- Parameters: workflow_id, document
-- Returns: affected rows
INSERT INTO workflow_edges (workflow_id, parent_id, child_id, `partition`)
SELECT ?, e.parent_id, e.child_id, ?
  FROM JSON_TABLE(?, '$[*]' COLUMNS (
         parent_id VARCHAR(100) PATH '$[0]',
         child_id VARCHAR(100) PATH '$[1]')) AS e
