-- Finishes a group of jobs that ended the same way (succeeded, dead or cancelled with one status
-- and error: at a peak, every 200), each row fenced by its claim's attempt and state 'running'.
-- A plain update by primary key: no CASE per column to evaluate, which is most of the cost of
-- outcome-apply.sql for a large batch. Same assignments as outcome-apply.sql for these states.
-- Keyed by the batch's partitions (the shard key: through vtgate, one shard; docs/sharding.md).
-- Parameters: state, last_status, last_error, partitions (list), ids (list), (id, attempt) pairs (list)
-- :now: the database clock, NOW(3), or the instant a test passes instead (clockedSql, sql.ts)
-- Returns: affected rows
UPDATE jobs
   SET state = ?, last_status = ?, last_error = ?, finished_at = :now, claimed_by = NULL,
       lease_expires_at = NULL, deadline_at = NULL, updated_at = :now
 WHERE `partition` IN (?) AND id IN (?) AND (id, attempt) IN (?) AND state = 'running'
