-- Parent outputs (docs/workflows.md "Parent outputs"): what a node asks to be called with besides
-- its body. 'parents': its parents' outputs (from workflow_node_outputs), read by the executor when
-- it claims the node's job; 'none' (every node before this migration): its body alone. An added
-- column with a constant default: an instant change on MySQL 8 and MariaDB alike.
ALTER TABLE workflow_nodes
  ADD COLUMN inputs VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT 'none';
