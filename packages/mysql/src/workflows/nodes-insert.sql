-- Stores a batch of a run's nodes in one statement, a multi-row VALUES list (vtgate refuses
-- JSON_TABLE and routes each row of a VALUES list by its own key: docs/sharding.md). Each row is
-- (workflow_id, node_id, job_id, state, trigger, parent_count, unfinished_parents = parent_count,
-- priority_rank, lane, max_attempts, target, retry, inputs, flow_key, flow_parallelism, flow_rate,
-- child_count, wake_delay_ms, wake_at, signal_hash, map_over, map_max_items, partition): the flow columns null
-- without flowControl; the wake and signal columns null for a call node; the map columns null but
-- for a map node; target and retry as JSON text. A node with no parent starts `pending` (its job is
-- inserted in the same transaction), or `ready` when the run's maxParallel holds it back; every
-- other node starts `waiting` with all its parents unfinished.
-- Parameters: :values, 23 per node
-- Returns: affected rows
INSERT INTO workflow_nodes (workflow_id, node_id, job_id, state, trigger_rule, parent_count, unfinished_parents,
                            priority, lane, max_attempts, target, retry, inputs, flow_key, flow_parallelism,
                            flow_rate, child_count, wake_delay_ms, wake_at, signal_hash, map_over, map_max_items,
                            `partition`)
VALUES :values
