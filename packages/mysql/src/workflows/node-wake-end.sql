-- Ends waiting node jobs without a call: a sleep's wake, a wait's timeout (node-wake.ts). The
-- fence is the state, read under the rows' locks: a signal (node-signal-end.sql) takes the same
-- lock, so a signal and the timeout at the same instant end the job once (the second finds it
-- ended). attempt is not counted: no call was made.
-- Keyed by the jobs' partitions, read with their rows (docs/sharding.md).
-- Parameters: state, last_error, partitions (list), ids (list)
-- Returns: affected rows
UPDATE jobs
   SET state = ?, last_error = ?, finished_at = NOW(3), updated_at = NOW(3)
 WHERE `partition` IN (?) AND id IN (?) AND state = 'pending'
