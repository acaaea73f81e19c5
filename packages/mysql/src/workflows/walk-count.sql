-- The walk, one step: the children of a batch of newly finished parents count them off, by the
-- counts walk-count-select.sql read in this transaction, one statement for the batch. Only waiting
-- children count: one cancelled or finished already has nothing to wait for. step_token marks every
-- child counted here, for walk-decide.sql. Each assignment reads only its own column.
-- One single-table UPDATE by the children's keys, each count a CASE on the child's job id
-- (withCaseGroups: `WHEN job_id IN (…) THEN n` per distinct count, a few for a step, searched in
-- each sorted list), not a join to a derived table, which vtgate v24 refuses in an UPDATE on a
-- sharded table (D58). Keyed by the runs' partitions, so through vtgate it reaches the one shard
-- that holds them (docs/sharding.md). FORCE INDEX (PRIMARY): by the children's keys.
-- Parameters: groups (job_id -> n), groups (job_id -> n), groups (job_id -> failed),
--   groups (job_id -> skipped), step_token, partitions (list), children ((workflow_id, node_id) list)
-- Returns: affected rows
UPDATE workflow_nodes c FORCE INDEX (PRIMARY)
   SET c.unfinished_parents = IF(c.unfinished_parents > CASE :groups_n ELSE 0 END,
                                 c.unfinished_parents - CASE :groups_n ELSE 0 END, 0),
       c.failed_parents = c.failed_parents + CASE :groups_failed ELSE 0 END,
       c.skipped_parents = c.skipped_parents + CASE :groups_skipped ELSE 0 END,
       c.step_token = ?
 WHERE c.`partition` IN (?) AND (c.workflow_id, c.node_id) IN (?) AND c.state = 'waiting'
