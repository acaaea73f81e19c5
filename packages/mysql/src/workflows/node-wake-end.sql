-- Ends waiting node jobs without a call: a sleep's wake, a wait's timeout (node-wake.ts), a wait's
-- signal (node-signal.ts). The fence is the state: conditional on the job still pending at the
-- attempt read under its row lock, so a signal and the timeout at the same instant end it once
-- (the second matches no row). attempt is not counted: no call was made.
-- Parameters: state, last_error, ids (list), attempt (a single job's, or NULL for a batch read under lock)
-- Returns: affected rows
UPDATE jobs
   SET state = ?, last_error = ?, finished_at = NOW(3), updated_at = NOW(3)
 WHERE id IN (?) AND state = 'pending' AND (? IS NULL OR attempt = ?)
