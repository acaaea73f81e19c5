-- Stores a batch of a run's dependencies in one statement, a multi-row VALUES list (vtgate refuses
-- JSON_TABLE: docs/sharding.md).
-- Parameters: :values of (workflow_id, parent_id, child_id, partition)
-- Returns: affected rows
INSERT INTO workflow_edges (workflow_id, parent_id, child_id, `partition`)
VALUES :values
