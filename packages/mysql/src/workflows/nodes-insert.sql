-- Stores a batch of a run's nodes in one statement. The document is a JSON array of
-- [node_id, job_id_hex, state, trigger, parent_count, priority_rank, lane, max_attempts, target, retry,
-- inputs, flow_key, flow_parallelism, flow_rate, child_count, wake_delay_ms, wake_at,
-- signal_hash_hex, map_over, map_max_items] (the flow columns null without flowControl; the wake and signal columns null for a
-- call node; the map columns null but for a map node) with target and retry as JSON text (a string element: JSON_TABLE reads scalars alike
-- on MySQL and MariaDB). A node with no parent starts `pending` (its job is inserted in the same
-- transaction), or `ready` when the run's maxParallel holds it back; every other node starts
-- `waiting` with all its parents unfinished.
-- JSON_TABLE: MySQL 8.0.4+ and MariaDB 10.6+.
-- Parameters: workflow_id, document
-- Returns: affected rows
INSERT INTO workflow_nodes (workflow_id, node_id, job_id, state, trigger_rule, parent_count, unfinished_parents,
                            priority, lane, max_attempts, target, retry, inputs, flow_key, flow_parallelism,
                            flow_rate, child_count, wake_delay_ms, wake_at, signal_hash, map_over, map_max_items,
                            `partition`)
SELECT ?, n.node_id, UNHEX(n.job_id), n.state, n.trigger_rule, n.parent_count, n.parent_count,
       n.priority, n.lane, n.max_attempts, n.target, n.retry, n.inputs, n.flow_key, n.flow_parallelism,
       n.flow_rate, n.child_count, n.wake_delay_ms, n.wake_at, UNHEX(n.signal_hash), n.map_over, n.map_max_items,
       ?
  FROM JSON_TABLE(?, '$[*]' COLUMNS (
         node_id VARCHAR(100) PATH '$[0]',
         job_id CHAR(32) PATH '$[1]',
         state VARCHAR(16) PATH '$[2]',
         trigger_rule VARCHAR(16) PATH '$[3]',
         parent_count INT PATH '$[4]',
         priority INT PATH '$[5]',
         lane VARCHAR(16) PATH '$[6]',
         max_attempts INT PATH '$[7]',
         target LONGTEXT PATH '$[8]',
         retry LONGTEXT PATH '$[9]',
         inputs VARCHAR(16) PATH '$[10]',
         flow_key VARCHAR(100) PATH '$[11]',
         flow_parallelism INT PATH '$[12]',
         flow_rate DECIMAL(12,3) PATH '$[13]',
         child_count INT PATH '$[14]',
         wake_delay_ms BIGINT PATH '$[15]',
         wake_at DATETIME(3) PATH '$[16]',
         signal_hash CHAR(64) PATH '$[17]',
         map_over VARCHAR(100) PATH '$[18]',
         map_max_items INT PATH '$[19]')) AS n
