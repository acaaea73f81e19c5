-- A cancel batch's jobs an executor is calling, marked: the executor aborts each call at its next
-- lease renewal and records it cancelled through the finish path (control-cancel-request.sql).
-- Parameters: ids (list)
-- Returns: affected rows
UPDATE jobs
   SET cancel_requested = 1, updated_at = NOW(3)
 WHERE id IN (?) AND state = 'running' AND claimed_by IS NOT NULL AND cancel_requested = 0
