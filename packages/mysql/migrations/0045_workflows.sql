-- Workflows: DAGs of HTTP calls, walked in the database (docs/workflows.md).
--
-- A run is one `workflows` row, one `workflow_nodes` row per node and one `workflow_edges` row per
-- dependency. Node jobs are ordinary rows of `jobs` (kind 'workflow', task_id NULL, workflow_id and
-- node_id set since migration 0001). A node's job id is chosen at submission and kept in its row,
-- so inserting a node's job is idempotent on the jobs primary key: asking twice makes one job, and
-- no new unique key (an index write on every job insert of every kind) is needed. The node's state
-- changes from waiting to pending in the same transaction, conditionally, so the job is asked for
-- once even after it was archived.

-- workflows_by_state (state, deadline_at): the reconciler's sweeps read the running range of it
-- (runs to finish, and runs past their deadline); a run changes state once, when it ends.
CREATE TABLE workflows (
  id BINARY(16) NOT NULL,
  tenant_id BINARY(16) NOT NULL,
  name VARCHAR(200) NOT NULL,
  state VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  paused TINYINT UNSIGNED NOT NULL DEFAULT 0,
  failure_policy VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  max_parallel INT UNSIGNED NULL,
  node_count INT UNSIGNED NOT NULL,
  edge_count INT UNSIGNED NOT NULL,
  deadline_at DATETIME(3) NULL,
  metadata JSON NULL,
  created_at DATETIME(3) NOT NULL,
  updated_at DATETIME(3) NOT NULL,
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (id),
  KEY workflows_by_tenant (tenant_id, id),
  KEY workflows_by_state (state, deadline_at)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The hot rows of the walk. unfinished_parents counts down as parents finish; failed_parents and
-- skipped_parents say how they finished, and the trigger rule decides from the three counts once
-- unfinished_parents reaches zero. step_token marks the rows one step of the walk decided, so the
-- step reads them back through the edges it came by (no index needed). walk_pending = 1: the node
-- is finished and its children were not told yet (the walk stopped at its bound, docs/workflows.md);
-- NULL otherwise, so workflow_nodes_unwalked holds entries only for that short while.
-- workflow_nodes_by_state (workflow_id, state) with the primary key behind it: the per-state
-- counts, the node list by state in node order, and "is anything left to run" as one index probe.
-- The node's definition (target, retry) is read once, when its job is made; outputs live in
-- workflow_node_outputs, off these rows.
CREATE TABLE workflow_nodes (
  workflow_id BINARY(16) NOT NULL,
  node_id VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  job_id BINARY(16) NOT NULL,
  state VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  trigger_rule VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  parent_count INT UNSIGNED NOT NULL,
  unfinished_parents INT UNSIGNED NOT NULL,
  failed_parents INT UNSIGNED NOT NULL DEFAULT 0,
  skipped_parents INT UNSIGNED NOT NULL DEFAULT 0,
  attempt INT UNSIGNED NOT NULL DEFAULT 0,
  priority TINYINT UNSIGNED NOT NULL,
  lane VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  max_attempts INT UNSIGNED NOT NULL,
  target JSON NOT NULL,
  retry JSON NOT NULL,
  step_token BIGINT UNSIGNED NULL,
  walk_pending TINYINT UNSIGNED NULL,
  finished_at DATETIME(3) NULL,
  PRIMARY KEY (workflow_id, node_id),
  KEY workflow_nodes_by_state (workflow_id, state),
  KEY workflow_nodes_unwalked (walk_pending)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Read by the parent's key (primary key): a finished node's children. By the child's key: an
-- operator's retry recounts a reset node's parents.
CREATE TABLE workflow_edges (
  workflow_id BINARY(16) NOT NULL,
  parent_id VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  child_id VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  PRIMARY KEY (workflow_id, parent_id, child_id),
  KEY workflow_edges_by_child (workflow_id, child_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- A node's output (its response body, capped), written once per successful attempt and read by the
-- API; kept out of workflow_nodes so the walk's updates never move it.
CREATE TABLE workflow_node_outputs (
  workflow_id BINARY(16) NOT NULL,
  node_id VARCHAR(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  attempt INT UNSIGNED NOT NULL,
  output LONGTEXT NOT NULL,
  created_at DATETIME(3) NOT NULL,
  PRIMARY KEY (workflow_id, node_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
