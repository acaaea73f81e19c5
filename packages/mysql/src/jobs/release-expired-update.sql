-- Gives expired claims back: to pending while attempts remain, to the DLQ when they are spent
-- (attempts handed back at shutdown, given_back, do not count), and to cancelled when a cancel
-- was requested while the call ran (a cancelled job never fires again).
-- Fenced by attempt, so a claim renewed or finished since the select is left alone.
-- Assignments read only columns no earlier assignment writes (MySQL applies them left to right).
-- Parameters: rows ((id, attempt) list)
UPDATE jobs
   SET last_error = CASE
                      WHEN cancel_requested = 1 THEN 'cancelled'
                      WHEN attempt - given_back >= max_attempts THEN 'claim lease expired on the last attempt'
                      ELSE 'claim lease expired'
                    END,
       finished_at = IF(cancel_requested = 1 OR attempt - given_back >= max_attempts, NOW(3), NULL),
       run_at = NOW(3), claimed_by = NULL, lease_expires_at = NULL, updated_at = NOW(3),
       state = CASE
                 WHEN cancel_requested = 1 THEN 'cancelled'
                 WHEN attempt - given_back >= max_attempts THEN 'dead'
                 ELSE 'pending'
               END
 WHERE (id, attempt) IN (?) AND state = 'running' AND lease_expires_at < NOW(3)
