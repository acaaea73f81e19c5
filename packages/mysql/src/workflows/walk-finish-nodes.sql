-- The walk, step 1: the nodes whose jobs this outcome batch finished take their job's final state,
-- in the same transaction as the job rows (fenced there by attempt). Conditional on the node still
-- being pending with that job, so a node is finished once: only a finish that matched here tells
-- the node's children (walk-count.sql), and so a parent is never counted twice. step_token marks
-- the rows finished here (walk-finished-check.sql).
-- One single-table UPDATE by the nodes' keys, each row's state and attempt a CASE on its job id
-- (withCaseColumns: a job is one node's, fixed at submission), not a join to literal rows, which
-- vtgate refuses on a sharded table (docs/sharding.md, D56). Keyed by the runs' partitions, so
-- through vtgate it reaches the one shard that holds them. FORCE INDEX (PRIMARY): by the nodes'
-- keys, without weighing the other indexes for the list of pairs (walk-finished-check.sql).
-- Parameters: cases (job_id -> state), cases (job_id -> attempt), step_token, partitions (list),
--   nodes ((workflow_id, node_id) list), job ids (list)
-- Returns: affected rows
UPDATE workflow_nodes FORCE INDEX (PRIMARY)
   SET state = CASE job_id :cases END, attempt = CASE job_id :cases END, finished_at = NOW(3), step_token = ?
 WHERE `partition` IN (?) AND (workflow_id, node_id) IN (?) AND job_id IN (?) AND state = 'pending'
