-- Workflow nodes that wait (docs/workflows.md "Nodes that wait", decision D45): a `sleep` node
-- calls nothing and succeeds at its wake time; a `wait` node succeeds when it is signalled, or
-- ends by its `onTimeout` at its timeout. Their jobs are node jobs of lanes 'sleep' and 'wait',
-- which no executor claims; their run_at is the wake time (or the timeout), so they become due
-- through the claim index like every job, and the executor's node waker ends them.
--
-- wake_delay_ms: from when the node is reached (its job is made), how long until it is due: a
-- sleep's `for`, a wait's `timeoutS`. wake_at: a sleep's `until` (an instant). Both NULL for a call.
-- signal_hash: a wait node's signal token, SHA-256 (the token itself is never stored).
-- Added at the end of the row: instant on MySQL 8 and MariaDB 10.6.
ALTER TABLE workflow_nodes
  ADD COLUMN wake_delay_ms BIGINT UNSIGNED NULL,
  ADD COLUMN wake_at DATETIME(3) NULL,
  ADD COLUMN signal_hash BINARY(32) NULL;
