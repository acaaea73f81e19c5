-- Stores a run's row. Running from the start: its root nodes' jobs are inserted in the same
-- transaction (node-jobs-insert-run.sql). trace_context: the run's trace, which its node jobs copy.
-- Parameters: id, tenant_id, name, failure_policy, max_parallel, node_count, edge_count, deadline_s, metadata, trace_context, tags
-- Returns: affected rows
INSERT INTO workflows (id, tenant_id, name, state, paused, failure_policy, max_parallel, node_count, edge_count,
                       deadline_at, metadata, created_at, updated_at, trace_context, tags, `partition`)
VALUES (?, ?, ?, 'running', 0, ?, ?, ?, ?, NOW(3) + INTERVAL ? SECOND, ?, NOW(3), NOW(3), ?, ?, ?)
