-- The partition leases this replica still holds, share-locked until the batch commits. A lease
-- expired or taken over (holder changed, token bumped) is missing from the answer or carries
-- another token; a takeover's UPDATE waits for this transaction. So nothing is written for a
-- partition after its lease moved on (invariant 6).
-- NOW(3) rides along: the batch's clock, without a round trip of its own.
-- Parameters: names (list), holder
-- Returns: rows of (name, token, db_now)
SELECT name, token, NOW(3) AS db_now
  FROM leases
 WHERE name IN (?) AND holder = ? AND expires_at > NOW(3)
  LOCK IN SHARE MODE
