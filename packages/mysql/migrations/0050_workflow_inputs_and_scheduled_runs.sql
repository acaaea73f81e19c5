-- Parent outputs (docs/workflows.md "Parent outputs"): what a node asks to be called with besides
-- its body. 'parents': its parents' outputs (from workflow_node_outputs), read by the executor when
-- it claims the node's job; 'none' (every node before this migration): its body alone. An added
-- column with a constant default: an instant change on MySQL 8 and MariaDB alike.
ALTER TABLE workflow_nodes
  ADD COLUMN inputs VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'none';

-- Scheduled workflows (docs/workflows.md "Scheduled workflows"): a task may carry the body of
-- POST /v1/workflows instead of a target. Its occurrences are jobs of lane 'workflow', which no
-- executor claims; the reconciler starts each one's run (run id = job id, so once per occurrence)
-- and the job stays running until the run ends, so the task's overlap policy sees it.
ALTER TABLE tasks
  ADD COLUMN workflow LONGTEXT NULL CHECK (workflow IS NULL OR JSON_VALID(workflow));
