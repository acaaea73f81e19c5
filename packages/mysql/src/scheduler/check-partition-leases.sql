-- The partition leases this replica still holds, read at the start of each batch, before and
-- outside its transaction. A lease expired or taken over (holder changed, token bumped) is missing
-- from the answer or carries another token, and its partition gets nothing from the batch
-- (invariant 6). No lock: what makes an occurrence one job is the due read's lock on the task rows
-- and the insert committing with the advance (invariant 2), so a batch that began under a lease
-- lost meanwhile commits only occurrences whose rows it holds, and the lease's renewal never waits
-- on a batch (through vtgate a slow batch held share locks here past the lease's TTL; D62).
-- NOW(3) rides along: the batch's clock, without a round trip of its own.
-- Parameters: names (list), holder
-- Returns: rows of (name, token, db_now)
SELECT name, token, NOW(3) AS db_now
  FROM leases
 WHERE name IN (?) AND holder = ? AND expires_at > NOW(3)
